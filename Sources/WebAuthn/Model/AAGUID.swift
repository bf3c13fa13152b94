/// The Authenticator Attestation GUID (WebAuthn L3 §6.5.1): 16 bytes naming an authenticator model.
///
/// Printed in the UUID form of RFC 9562 (`8-4-4-4-12` lower-case hex), as FIDO metadata and
/// Auth0's `aaguid` member write it.
public struct AAGUID: Sendable, Hashable, CustomStringConvertible {
    /// The 16 bytes.
    public let bytes: [UInt8]

    /// The all-zero AAGUID that synced platform passkeys and `none` attestation report.
    public static let zero = AAGUID(unchecked: [UInt8](repeating: 0, count: 16))

    private init(unchecked bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Wraps 16 bytes.
    ///
    /// - Throws: `WebAuthnError.Code.malformedEncoding` unless there are exactly 16 bytes.
    public init(bytes: some Collection<UInt8>) throws(WebAuthnError) {
        guard bytes.count == 16 else {
            throw WebAuthnError(.malformedEncoding, "an AAGUID is 16 bytes, not \(bytes.count)")
        }
        self.bytes = Array(bytes)
    }

    /// Parses the UUID form (hyphens optional, either case).
    public init(uuidString: String) throws(WebAuthnError) {
        try self.init(bytes: Hex.decode(uuidString.filter { $0 != "-" }))
    }

    /// The UUID form, for example `00000000-0000-0000-0000-000000000000`.
    public var description: String {
        let hex = Array(Hex.encode(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
