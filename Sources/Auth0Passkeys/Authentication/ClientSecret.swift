/// A confidential client's secret, as a machine-to-machine application authenticates with at the
/// token endpoint (RFC 6749 §2.3.1, `client_secret`).
///
/// Whoever holds it gets Management API tokens, so it never prints: `description` and
/// `debugDescription` are `<redacted>` and the mirror is empty, so string interpolation and `dump`
/// show nothing of it (STYLE §5). The wire trace redacts `client_secret` too (``WireRedactor``).
///
/// The libraries never read the environment or a file: the caller builds it, as the `passkey` CLI
/// does from `AUTH0_CLIENT_SECRET` or `--client-secret-file`.
public struct ClientSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The secret text as it travels in the token request.
    package let text: String

    /// Wraps a client secret.
    ///
    /// - Parameter text: the secret, as the tenant issued it.
    public init(_ text: String) {
        self.text = text
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
