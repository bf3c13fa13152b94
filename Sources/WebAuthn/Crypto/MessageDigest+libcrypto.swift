private import CCrypto

/// The SHA family (FIPS 180-4) by name, for structures that name their own hash: a TPM object's
/// `nameAlg` and the hash of a `tpm` statement's `alg` (WebAuthn L3 §8.3, TPM 2.0 Part 2 §6.3).
package enum MessageDigest: Sendable {
    case sha1, sha256, sha384, sha512

    /// The digest of `bytes`.
    package func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let algorithm: OpaquePointer? =
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            case .sha512: EVP_sha512()
            }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = withBorrowedBytes(bytes) { message in
            EVP_Digest(message.baseAddress, message.count, &digest, &length, algorithm, nil)
        }
        // EVP_Digest with a built-in digest fails only when allocation fails.
        precondition(result == 1, "EVP_Digest failed")
        return Array(digest.prefix(Int(length)))
    }

    /// The hash a COSE signature algorithm signs with, if it names one (EdDSA does not).
    package init?(signing algorithm: COSEAlgorithm) {
        switch algorithm {
        case .rs1: self = .sha1
        case .es256, .ps256, .rs256: self = .sha256
        case .es384, .ps384, .rs384: self = .sha384
        case .es512, .ps512, .rs512: self = .sha512
        case .eddsa, .ed25519, .ed448, .ecdhESHKDF256: return nil
        }
    }
}
