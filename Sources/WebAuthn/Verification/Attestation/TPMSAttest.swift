/// A TPM attestation, `TPMS_ATTEST` (TPM 2.0 Part 2 §10.12.12) of type `TPM_ST_ATTEST_CERTIFY`:
/// what a `tpm` attestation statement's `certInfo` holds (WebAuthn L3 §8.3).
struct TPMSAttest {
    /// `TPM_GENERATED_VALUE`: the TPM made this structure.
    static let generatedValue: UInt32 = 0xFF54_4347
    /// `TPM_ST_ATTEST_CERTIFY`.
    static let certifyType: UInt16 = 0x8017

    let magic: UInt32
    let type: UInt16
    let extraData: [UInt8]
    /// `attested.name`: the certified object's name, `nameAlg ‖ H(pubArea)`.
    let attestedName: [UInt8]

    /// Parses `certInfo`, all of it.
    ///
    /// - Throws: `invalid-attestation-statement` for a truncated structure or trailing bytes.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = ByteReader(bytes[...], subject: "tpm certInfo", code: .invalidAttestationStatement)
        magic = try reader.readUInt32("magic")
        type = try reader.readUInt16("type")
        try reader.skip(Int(try reader.readUInt16("qualifiedSigner size")), "qualifiedSigner")
        extraData = Array(try reader.read(Int(try reader.readUInt16("extraData size")), "extraData"))
        try reader.skip(17, "clockInfo")
        try reader.skip(8, "firmwareVersion")
        attestedName = Array(try reader.read(Int(try reader.readUInt16("attested.name size")), "attested.name"))
        try reader.skip(Int(try reader.readUInt16("attested.qualifiedName size")), "attested.qualifiedName")
        guard reader.isAtEnd else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm certInfo has trailing bytes", offset: reader.offset)
        }
    }
}
