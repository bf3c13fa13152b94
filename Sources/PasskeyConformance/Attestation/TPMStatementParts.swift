package import WebAuthn

/// The TPM 2.0 structures of a `tpm` attestation statement (WebAuthn L3 §8.3) as a TPM makes them
/// for a credential key: `pubArea` (`TPMT_PUBLIC`, TPM 2.0 Part 2 §12.2.4) and `certInfo`
/// (`TPMS_ATTEST`, §10.12.12), every field a test breaks open to change.
package enum TPMStatementParts {
    /// `TPM_GENERATED_VALUE`.
    package static let generatedValue: UInt32 = 0xFF54_4347
    /// `TPM_ST_ATTEST_CERTIFY`.
    package static let certifyType: UInt16 = 0x8017

    /// `TPMT_PUBLIC` of `key`, name algorithm SHA-256, no symmetric scheme, no signing scheme:
    /// `TPM_ALG_ECC` with the curve and point of an EC2 key, `TPM_ALG_RSA` with the modulus and
    /// exponent of an RSA key.
    ///
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` for a key no TPM holds (OKP, or a
    ///   curve TPM 2.0 has no identifier for here).
    package static func publicArea(of key: COSEKey) throws(WebAuthnError) -> [UInt8] {
        // nameAlg SHA-256; objectAttributes fixedTPM, fixedParent, sensitiveDataOrigin,
        // userWithAuth, noDA, sign; empty authPolicy; symmetric TPM_ALG_NULL; scheme TPM_ALG_NULL.
        let common: [UInt8] = [0x00, 0x0B, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00, 0x00, 0x10, 0x00, 0x10]
        switch key.parameters {
        case .ec2(let curve, let x, let y):
            let curveID: UInt16
            switch curve {
            case .p256: curveID = 0x0003
            case .p384: curveID = 0x0004
            case .p521: curveID = 0x0005
            default: throw WebAuthnError(.unsupportedAlgorithm, "a TPM holds no EC key on \(curve)")
            }
            // type TPM_ALG_ECC, …, curveID, kdf TPM_ALG_NULL, unique x and y.
            return [0x00, 0x23] + common + u16(curveID) + [0x00, 0x10] + sized(x) + sized(y)
        case .rsa(let n, let e):
            let modulus = Array(n.drop(while: { $0 == 0 }))
            let exponent = Array(e.drop(while: { $0 == 0 }))
            guard exponent.count <= 4 else {
                throw WebAuthnError(.unsupportedAlgorithm, "a TPM holds no RSA key with an exponent over 32 bits")
            }
            // type TPM_ALG_RSA, …, keyBits, exponent (4 bytes), unique n.
            return [0x00, 0x01] + common + u16(UInt16(modulus.count * 8))
                + [UInt8](repeating: 0, count: 4 - exponent.count) + exponent + sized(modulus)
        case .okp:
            throw WebAuthnError(.unsupportedAlgorithm, "a TPM holds no OKP key")
        }
    }

    /// `TPMS_ATTEST` certifying the object named `attestedName` for `extraData`: magic, type, an
    /// empty qualifiedSigner, extraData, zero clockInfo and firmwareVersion, then
    /// `TPMS_CERTIFY_INFO` (name, empty qualifiedName), then `suffix`.
    package static func certInfo(
        extraData: [UInt8], attestedName: [UInt8], magic: UInt32 = generatedValue, type: UInt16 = certifyType,
        suffix: [UInt8] = []
    ) -> [UInt8] {
        u16(UInt16(magic >> 16)) + u16(UInt16(magic & 0xFFFF)) + u16(type) + [0x00, 0x00] + sized(extraData)
            + [UInt8](repeating: 0, count: 17 + 8) + sized(attestedName) + [0x00, 0x00] + suffix
    }

    /// An object's name (TPM 2.0 Part 1 §16): nameAlg (SHA-256) ‖ SHA-256(pubArea).
    package static func name(of publicArea: [UInt8]) -> [UInt8] {
        [0x00, 0x0B] + SHA256Digest.hash(publicArea)
    }

    private static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    /// A `TPM2B_…`: a 2-byte big-endian size, then the bytes.
    private static func sized(_ bytes: [UInt8]) -> [UInt8] { u16(UInt16(bytes.count)) + bytes }
}
