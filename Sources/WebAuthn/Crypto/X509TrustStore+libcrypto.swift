private import CCrypto
import FoundationEssentials

/// Trust anchors parsed once into one OpenSSL `X509_STORE`, to verify many chains against
/// (RFC 5280 §6.1: the trust anchor information is an input of path validation, the same for
/// every path a relying party checks).
///
/// ``X509Certificate/verifyChain(leaf:intermediates:trustAnchors:at:)`` builds one for a single
/// verification; a ``RelyingParty`` keeps one per set of anchors it verifies attestations against,
/// so that its anchors are parsed once, not once per registration (issue 30's profile).
///
/// `@unchecked Sendable`: the store is filled in `init` and never modified afterwards, and
/// OpenSSL 3 lets many `X509_STORE_CTX` verify against one `X509_STORE` at once (its lookups take
/// the store's lock).
final class X509TrustStore: @unchecked Sendable {
    /// The anchors, as given.
    let anchors: [X509Certificate]
    /// The `X509_STORE *`, holding a parsed copy of every anchor.
    private let store: OpaquePointer

    /// Puts every anchor, as OpenSSL parsed it with the certificate, into a new store.
    ///
    /// - Throws: `WebAuthnError` with `untrusted-attestation-root` when there are no anchors.
    init(anchors: [X509Certificate]) throws(WebAuthnError) {
        guard !anchors.isEmpty else {
            throw WebAuthnError(.untrustedAttestationRoot, "no trust anchors for the attestation certificate")
        }
        let store = try check(X509_STORE_new(), .cryptoFailure, "X509_STORE_new")
        do throws(WebAuthnError) {
            for anchor in anchors {
                // The store takes its own reference.
                try check(X509_STORE_add_cert(store, anchor.handle.pointer), .cryptoFailure, "X509_STORE_add_cert")
            }
        } catch {
            X509_STORE_free(store)
            throw error
        }
        self.anchors = anchors
        self.store = store
    }

    deinit {
        X509_STORE_free(store)
    }

    /// Verifies that `leaf` chains to one of the anchors through `intermediates`, with each
    /// certificate valid at `time` (RFC 5280 §6, OpenSSL's `X509_verify_cert`), as
    /// ``X509Certificate/verifyChain(leaf:intermediates:trustAnchors:at:)`` documents.
    ///
    /// - Returns: the instants at which every certificate of the chain that was built (the leaf,
    ///   the intermediates it went through, the anchor) is valid, as OpenSSL counts them: from the
    ///   latest `notBefore` to, not including, the earliest `notAfter`. It contains `time`.
    /// - Throws: `WebAuthnError` with `untrusted-attestation-root` and OpenSSL's reason when the
    ///   chain does not verify.
    func verify(leaf: X509Certificate, intermediates: [X509Certificate], at time: Date)
        throws(WebAuthnError) -> Range<Date>
    {
        let chain = try check(ccrypto_x509_stack_new(), .cryptoFailure, "sk_X509_new_null")
        defer { ccrypto_x509_stack_free(chain) }
        for intermediate in intermediates {
            // The stack's reference, released by ccrypto_x509_stack_free.
            try check(X509_up_ref(intermediate.handle.pointer), .cryptoFailure, "X509_up_ref")
            guard ccrypto_x509_stack_push(chain, intermediate.handle.pointer) == 1 else {
                X509_free(intermediate.handle.pointer)
                throw libcryptoError(.cryptoFailure, "sk_X509_push")
            }
        }
        // The context borrows the leaf's `X509 *`: keep it alive until the context is freed.
        let target = leaf.handle.pointer
        defer { withExtendedLifetime(leaf) {} }
        let context = try check(X509_STORE_CTX_new(), .cryptoFailure, "X509_STORE_CTX_new")
        defer { X509_STORE_CTX_free(context) }
        try check(X509_STORE_CTX_init(context, store, target, chain), .cryptoFailure, "X509_STORE_CTX_init")
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(Self.checkTime(time)))
        try check(
            X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_USE_CHECK_TIME | X509_V_FLAG_PARTIAL_CHAIN)),
            .cryptoFailure, "X509_VERIFY_PARAM_set_flags")
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(code)))
            discardLibcryptoErrors()
            throw WebAuthnError(.untrustedAttestationRoot, reason)
        }
        return try Self.validity(of: X509_STORE_CTX_get0_chain(context))
    }

    /// The instant OpenSSL checks validity at for `time`: whole seconds, rounded down.
    static func checkTime(_ time: Date) -> Int {
        Int(time.timeIntervalSince1970.rounded(.down))
    }

    /// The common validity period of a verified chain: `X509_cmp_time` counts a certificate
    /// valid from its `notBefore` up to, not including, its `notAfter`.
    private static func validity(of chain: OpaquePointer?) throws(WebAuthnError) -> Range<Date> {
        guard let chain else {
            throw WebAuthnError(.cryptoFailure, "X509_STORE_CTX_get0_chain gave no chain")
        }
        var start = Date.distantPast
        var end = Date.distantFuture
        // sk_X509_num/sk_X509_value are macros over these two functions.
        for index in 0..<OPENSSL_sk_num(chain) {
            guard let certificate = OpaquePointer(OPENSSL_sk_value(chain, index)) else {
                throw WebAuthnError(.cryptoFailure, "a verified chain has no certificate \(index)")
            }
            let validity = try X509Certificate.validity(of: certificate)
            start = max(start, validity.notBefore)
            end = min(end, validity.notAfter)
        }
        guard start < end else {
            throw WebAuthnError(.cryptoFailure, "a verified chain has no common validity period")
        }
        return start..<end
    }
}
