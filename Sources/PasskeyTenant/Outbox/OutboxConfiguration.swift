/// Where the local outbox shows its messages besides the store, and how long a passwordless code
/// lives (``TenantConfiguration/outbox``): `tenant serve --test-outbox`, `--outbox-file FILE`,
/// `--otp-lifetime SECONDS`; in a configuration file `test_outbox`, `outbox_file`, `otp_lifetime`.
///
/// The outbox holds codes and links in the clear, so nothing shows it by default: the store keeps
/// the messages, and a test asks for them through one of these.
public struct OutboxConfiguration: Sendable, Hashable {
    /// **[local]** Whether `GET /test/outbox?to=ADDRESS` answers; without it the
    /// route does not exist (404). Off by default.
    public var servesTestRoute: Bool
    /// **[local]** A file every message is also appended to, as one JSON line;
    /// nil for none. The tenant refuses to start when it cannot open the file for appending.
    public var file: String?
    /// How long a passwordless code or magic link is good for: 180 seconds by default, Auth0's
    /// `totp.time_step` of a new passwordless connection.
    public var otpLifetime: Duration

    /// Creates the settings.
    ///
    /// - Parameters:
    ///   - servesTestRoute: whether `GET /test/outbox` answers; false by default.
    ///   - file: a file to append each message to as a JSON line; none by default.
    ///   - otpLifetime: how long a passwordless code lives; 180 seconds by default.
    public init(servesTestRoute: Bool = false, file: String? = nil, otpLifetime: Duration = .seconds(180)) {
        self.servesTestRoute = servesTestRoute
        self.file = file
        self.otpLifetime = otpLifetime
    }
}
