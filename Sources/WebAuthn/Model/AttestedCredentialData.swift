/// Attested credential data (WebAuthn L3 §6.5.2), carried in authenticator data when AT is set.
///
/// ```
/// aaguid (16) ‖ credentialIdLength (2, big-endian) ‖ credentialId (L) ‖ credentialPublicKey (COSE_Key, CBOR)
/// ```
///
/// The public key is kept as the bytes received, because that is what a relying party stores and
/// what a later assertion is checked with; ``publicKey`` decodes it. A key in an algorithm this
/// library cannot use (say ML-DSA) still parses here, and fails only where it is used.
public struct AttestedCredentialData: Sendable, Hashable {
    /// The largest credential ID WebAuthn allows (L3 §6.5.2, `credentialIdLength`).
    public static let maximumCredentialIDLength = 1023

    /// The authenticator model.
    public let aaguid: AAGUID
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The credential public key, as the COSE_Key bytes the authenticator wrote.
    public let credentialPublicKey: [UInt8]

    /// Builds attested credential data for a new credential.
    ///
    /// - Throws: `WebAuthnError.Code.malformedAuthenticatorData` for an empty credential ID or one
    ///   longer than 1023 bytes.
    public init(aaguid: AAGUID, credentialID: [UInt8], publicKey: COSEKey) throws(WebAuthnError) {
        guard (1...Self.maximumCredentialIDLength).contains(credentialID.count) else {
            throw WebAuthnError(
                .malformedAuthenticatorData, "a credential ID is 1 to 1023 bytes, not \(credentialID.count)")
        }
        self.aaguid = aaguid
        self.credentialID = credentialID
        self.credentialPublicKey = publicKey.bytes
    }

    /// Reads attested credential data from the front of `reader`, leaving what follows
    /// (extensions) unread.
    package init(from reader: inout ByteReader) throws(WebAuthnError) {
        aaguid = try AAGUID(bytes: reader.read(16, "AAGUID"))
        let length = Int(try reader.readUInt16("credential ID length"))
        guard (1...Self.maximumCredentialIDLength).contains(length) else {
            throw WebAuthnError(
                .malformedAuthenticatorData, "credential ID length \(length) is outside 1...1023",
                offset: reader.offset - 2)
        }
        credentialID = Array(try reader.read(length, "credential ID"))
        let keyOffset = reader.offset
        let consumed: Int
        do {
            consumed = try CBOR.decodeFirst(reader.rest).consumed
        } catch {
            throw error.shifted(by: keyOffset).recoded(.malformedAuthenticatorData, "credential public key")
        }
        credentialPublicKey = Array(try reader.read(consumed, "credential public key"))
    }

    /// The encoded form.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encodedCount)
        append(to: &bytes)
        return bytes
    }

    /// The length of ``bytes``.
    var encodedCount: Int { 18 + credentialID.count + credentialPublicKey.count }

    /// Appends ``bytes`` to `output`, for authenticator data written in one buffer.
    func append(to output: inout [UInt8]) {
        let length = UInt16(credentialID.count)
        output += aaguid.bytes
        output.append(UInt8(length >> 8))
        output.append(UInt8(length & 0xFF))
        output += credentialID
        output += credentialPublicKey
    }

    /// The credential public key, decoded.
    ///
    /// - Throws: `malformed-cose-key` or `unsupported-algorithm` from ``COSEKey/init(bytes:)``.
    public var publicKey: COSEKey {
        get throws(WebAuthnError) { try COSEKey(bytes: credentialPublicKey) }
    }
}
