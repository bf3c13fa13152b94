private import CCrypto
import Synchronization

/// One OpenSSL key (`EVP_PKEY *`), public or private, owned by this object and freed on deinit
/// (apple/swift-crypto · `NISTCurvesKeys_boring.swift`). Nothing outside the `…+libcrypto.swift`
/// files sees the pointer.
///
/// A key that signs or verifies more than once keeps, per algorithm and direction, one digest
/// context initialized with it (``digestContext(signing:algorithm:)``): each operation copies
/// that template instead of initializing a context, which in OpenSSL 3 looks the digest and the
/// signature algorithm up by name in the provider store every time (a fifth of an ES256
/// signature's cost, issue 13's profile). A public key that verifies ECDSA or RSA signatures keeps
/// one ``DigestVerifier`` per algorithm instead (``digestVerifier(_:)``).
///
/// `@unchecked Sendable`: the key is never modified after init, OpenSSL 3 allows one `EVP_PKEY`
/// to be used by many operations at once when nobody modifies it, and the templates are only
/// read (copied) once made, under a mutex.
final class EVPKey: @unchecked Sendable {
    /// The `EVP_PKEY *`.
    let pointer: OpaquePointer
    /// The initialized `EVP_MD_CTX *` templates, by algorithm and direction.
    private let templates = Mutex<[TemplateKey: OpaquePointer]>([:])
    /// The prepared verifications, by algorithm.
    private let verifiers = Mutex<[COSEAlgorithm: DigestVerifier]>([:])

    private struct TemplateKey: Hashable {
        let algorithm: COSEAlgorithm
        let signing: Bool
    }

    /// Takes ownership of a key a libcrypto call returned.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        templates.withLock { templates in
            for context in templates.values {
                EVP_MD_CTX_free(context)
            }
        }
        EVP_PKEY_free(pointer)
    }

    /// A new `EVP_MD_CTX *`, ready for one `EVP_DigestSign` or `EVP_DigestVerify` with this key and
    /// `algorithm`: a copy (`EVP_MD_CTX_copy_ex`) of the key's template for them, made on first
    /// use by ``startDigestOperation(_:signing:algorithm:)``. The caller frees it.
    func digestContext(signing: Bool, algorithm: COSEAlgorithm) throws(WebAuthnError) -> OpaquePointer {
        let key = TemplateKey(algorithm: algorithm, signing: signing)
        let template = try templates.withLock { (templates) throws(WebAuthnError) -> OpaquePointer in
            if let template = templates[key] {
                return template
            }
            let template = try check(EVP_MD_CTX_new(), .cryptoFailure, "EVP_MD_CTX_new")
            do throws(WebAuthnError) {
                try startDigestOperation(template, signing: signing, algorithm: algorithm)
            } catch {
                EVP_MD_CTX_free(template)
                throw error
            }
            templates[key] = template
            return template
        }
        let context = try check(EVP_MD_CTX_new(), .cryptoFailure, "EVP_MD_CTX_new")
        guard EVP_MD_CTX_copy_ex(context, template) == 1 else {
            EVP_MD_CTX_free(context)
            throw libcryptoError(.cryptoFailure, "EVP_MD_CTX_copy_ex(\(algorithm))")
        }
        return context
    }

    /// The key's verification of `algorithm`'s signatures on a hash (ECDSA, RSA), made on first
    /// use; `nil` for EdDSA, which verifies with ``digestContext(signing:algorithm:)``.
    ///
    /// - Throws: `WebAuthnError` with `invalid-key` when OpenSSL refuses the key for `algorithm`.
    func digestVerifier(_ algorithm: COSEAlgorithm) throws(WebAuthnError) -> DigestVerifier? {
        if let verifier = verifiers.withLock({ $0[algorithm] }) {
            return verifier
        }
        guard let made = try DigestVerifier(key: self, algorithm: algorithm) else {
            return nil
        }
        return verifiers.withLock { verifiers in
            if let verifier = verifiers[algorithm] {
                return verifier  // another thread made one meanwhile: one per algorithm
            }
            verifiers[algorithm] = made
            return made
        }
    }

    /// Starts a one-shot `EVP_DigestSign` or `EVP_DigestVerify` for `algorithm` on `context`:
    /// the digest (none for EdDSA, which hashes internally) and, for RSA, the padding (RFC 8812
    /// PKCS#1 v1.5; RFC 8230 PSS with MGF1 over the same hash and a salt as long as the digest).
    func startDigestOperation(
        _ context: OpaquePointer, signing: Bool, algorithm: COSEAlgorithm
    ) throws(WebAuthnError) {
        guard algorithm.isSignatureAlgorithm else {
            throw WebAuthnError(.unsupportedAlgorithm, "\(algorithm) is not a signature algorithm")
        }
        var keyContext: OpaquePointer?
        let digest = algorithm.digestName
        let started = withOptionalCString(digest) { digest in
            signing
                ? EVP_DigestSignInit_ex(context, &keyContext, digest, nil, nil, pointer, nil)
                : EVP_DigestVerifyInit_ex(context, &keyContext, digest, nil, nil, pointer, nil)
        }
        try check(
            started, .invalidKey, "\(signing ? "EVP_DigestSignInit_ex" : "EVP_DigestVerifyInit_ex")(\(algorithm))")
        guard let keyContext, digest != nil else {
            return
        }
        try Self.setPadding(keyContext, algorithm: algorithm)
    }

    /// Sets an RSA algorithm's padding on a signing or verifying `EVP_PKEY_CTX *`: PKCS#1 v1.5 for
    /// RS* (RFC 8812), PSS with MGF1 over the same hash and a salt as long as the digest for PS*
    /// (RFC 8230); nothing for the others.
    static func setPadding(_ keyContext: OpaquePointer, algorithm: COSEAlgorithm) throws(WebAuthnError) {
        switch algorithm {
        case .rs256, .rs384, .rs512, .rs1:
            try check(
                EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING), .cryptoFailure, "PKCS#1 v1.5 padding")
        case .ps256, .ps384, .ps512:
            try check(EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING), .cryptoFailure, "PSS padding")
            try check(
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, RSA_PSS_SALTLEN_DIGEST), .cryptoFailure, "PSS salt length")
            try check(
                EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, FetchedDigest.digest(algorithm)), .cryptoFailure,
                "PSS MGF1 digest")
        case .es256, .es384, .es512, .eddsa, .ed25519, .ed448, .ecdhESHKDF256:
            break
        }
    }
}

extension COSEAlgorithm {
    /// The OpenSSL name of the algorithm's hash, or `nil` for EdDSA (RFC 8032: the message goes
    /// to the signature scheme whole) and for ECDH, which signs nothing.
    fileprivate var digestName: String? {
        switch self {
        case .es256, .ps256, .rs256: "SHA256"
        case .es384, .ps384, .rs384: "SHA384"
        case .es512, .ps512, .rs512: "SHA512"
        case .rs1: "SHA1"
        case .eddsa, .ed25519, .ed448, .ecdhESHKDF256: nil
        }
    }
}

/// Lends an optional string to C as an optional `const char *`.
func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else {
        return body(nil)
    }
    return string.withCString { body($0) }
}
