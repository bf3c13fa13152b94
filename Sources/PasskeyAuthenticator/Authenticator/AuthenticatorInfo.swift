public import WebAuthn

/// What a client needs to know about an authenticator before it asks it anything: the useful
/// part of `authenticatorGetInfo` (CTAP 2.1 §6.4) plus the attachment and transports WebAuthn
/// reports (WebAuthn L3 §5.4.5, §5.8.4).
public struct AuthenticatorInfo: Sendable, Hashable {
    /// The authenticator model (`aaguid`).
    public var aaguid: AAGUID
    /// How it is attached to the client (`platform` or `cross-platform`).
    public var attachment: AuthenticatorAttachment
    /// How a client reaches it, as `getTransports()` reports.
    public var transports: [AuthenticatorTransport]
    /// The credential algorithms it supports, most preferred first (`algorithms`).
    public var algorithms: [COSEAlgorithm]
    /// Whether it can keep discoverable credentials (option `rk`).
    public var supportsResidentKeys: Bool
    /// Whether it has built-in user verification (option `uv`).
    public var supportsUserVerification: Bool
    /// The extensions it implements, by CTAP name (`extensions`: `hmac-secret`, `credProps` is the
    /// client's).
    public var extensions: [String]
    /// The longest serialized large-blob array it keeps (`maxSerializedLargeBlobArray`, at least
    /// 1024); `nil` when it keeps none.
    public var maxSerializedLargeBlobArray: Int? = nil
    /// Whether it also speaks U2F (CTAP1, FIDO U2F Raw Message Formats v1.2): `U2F_V2` in getInfo's
    /// `versions`, and ``Authenticator/registerU2F(application:challenge:)`` and its siblings answer.
    public var supportsU2F = false

    /// Describes an authenticator.
    ///
    /// - Parameters:
    ///   - aaguid: the model.
    ///   - attachment: platform or cross-platform.
    ///   - transports: the transports.
    ///   - algorithms: the supported algorithms, most preferred first.
    ///   - supportsResidentKeys: whether it keeps discoverable credentials.
    ///   - supportsUserVerification: whether it verifies users itself.
    ///   - extensions: the CTAP extensions it implements.
    public init(
        aaguid: AAGUID, attachment: AuthenticatorAttachment, transports: [AuthenticatorTransport],
        algorithms: [COSEAlgorithm], supportsResidentKeys: Bool, supportsUserVerification: Bool,
        extensions: [String]
    ) {
        self.aaguid = aaguid
        self.attachment = attachment
        self.transports = transports
        self.algorithms = algorithms
        self.supportsResidentKeys = supportsResidentKeys
        self.supportsUserVerification = supportsUserVerification
        self.extensions = extensions
    }
}
