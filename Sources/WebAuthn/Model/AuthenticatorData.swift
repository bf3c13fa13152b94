/// Authenticator data (WebAuthn L3 §6.1): what the authenticator signs, next to the client data hash.
///
/// ```
/// rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)
///     ‖ attestedCredentialData (if AT) ‖ extensions (CBOR map, if ED)
/// ```
///
/// Parsing keeps the bytes exactly as received in ``bytes``: they are what the signature covers.
public struct AuthenticatorData: Sendable, Hashable {
    /// SHA-256 of the RP ID the credential is scoped to.
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: AuthenticatorFlags
    /// The signature counter (WebAuthn L3 §6.1.1); 0 for authenticators that keep none.
    public let signCount: UInt32
    /// The new credential, present exactly when AT is set.
    public let attestedCredentialData: AttestedCredentialData?
    /// Authenticator extension outputs (a CBOR map), present exactly when ED is set.
    public let extensions: CBOR?
    /// The encoded authenticator data.
    public let bytes: [UInt8]

    /// Parses authenticator data.
    ///
    /// - Throws: `WebAuthnError.Code.malformedAuthenticatorData`, with the offset, when the bytes
    ///   are short, when AT or ED disagree with what follows, or when bytes are left over.
    public init(bytes: some Collection<UInt8>) throws(WebAuthnError) {
        let bytes = Array(bytes)
        var reader = ByteReader(bytes[...], subject: "authenticator data", code: .malformedAuthenticatorData)
        rpIDHash = Array(try reader.read(32, "rpIdHash"))
        flags = AuthenticatorFlags(rawValue: try reader.readUInt8("flags"))
        signCount = try reader.readUInt32("signCount")
        attestedCredentialData =
            flags.contains(.attestedCredentialData) ? try AttestedCredentialData(from: &reader) : nil
        if flags.contains(.extensionData) {
            let start = reader.offset
            do {
                extensions = try CBOR(decoding: reader.rest)
            } catch {
                throw error.shifted(by: start).recoded(.malformedAuthenticatorData, "extensions")
            }
            guard extensions?.mapValue != nil else {
                throw WebAuthnError(.malformedAuthenticatorData, "extensions are not a CBOR map", offset: start)
            }
        } else {
            extensions = nil
            guard reader.isAtEnd else {
                let what = flags.contains(.attestedCredentialData) ? "credential public key" : "signCount"
                throw WebAuthnError(
                    .malformedAuthenticatorData,
                    "\(reader.rest.count) unexpected bytes after the \(what) (ED is clear)",
                    offset: reader.offset)
            }
        }
        self.bytes = bytes
    }

    /// Builds authenticator data, as an authenticator does.
    ///
    /// - Parameters:
    ///   - rpIDHash: SHA-256 of the RP ID.
    ///   - flags: UP, UV, BE and BS as the authenticator decides; AT and ED are set from the
    ///     presence of `attestedCredentialData` and `extensions`, whatever `flags` says.
    ///   - signCount: the signature counter.
    ///   - attestedCredentialData: the new credential, for a registration.
    ///   - extensions: authenticator extension outputs, a CBOR map.
    /// - Precondition: `rpIDHash` is 32 bytes.
    public init(
        rpIDHash: [UInt8], flags: AuthenticatorFlags, signCount: UInt32,
        attestedCredentialData: AttestedCredentialData? = nil, extensions: CBOR? = nil
    ) {
        precondition(rpIDHash.count == 32, "rpIdHash is a SHA-256 digest")
        var flags = flags.subtracting([.attestedCredentialData, .extensionData])
        if attestedCredentialData != nil { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        self.rpIDHash = rpIDHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredentialData = attestedCredentialData
        self.extensions = extensions
        let extensionBytes = extensions?.encoded() ?? []
        var bytes: [UInt8] = []
        bytes.reserveCapacity(37 + (attestedCredentialData?.encodedCount ?? 0) + extensionBytes.count)
        bytes += rpIDHash
        bytes.append(flags.rawValue)
        withUnsafeBytes(of: signCount.bigEndian) { bytes += $0 }
        attestedCredentialData?.append(to: &bytes)
        bytes += extensionBytes
        self.bytes = bytes
    }
}
