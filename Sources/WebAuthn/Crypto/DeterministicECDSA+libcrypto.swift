private import CCrypto

extension EVPKey {
    /// ECDSA over SHA-256 with the nonce of RFC 6979 §3.2 (``DeterministicNonces``), for P-256: the
    /// same key and message always give the same DER `Ecdsa-Sig-Value`.
    ///
    /// OpenSSL 3.0 cannot take a nonce from outside (3.2's `nonce-type` parameter is missing, and
    /// `ECDSA_do_sign_ex` needs the deprecated `EC_KEY`), so the signature is computed here with
    /// the `BIGNUM` / `EC_GROUP` / `EC_POINT` API (SEC 1 §4.1.3):
    ///
    /// ```
    /// e = SHA-256(message) mod n     R = k·G     r = R.x mod n     s = k⁻¹ · (e + r·d) mod n
    /// ```
    ///
    /// with the next candidate `k` when `r` or `s` is 0 (RFC 6979 §3.4). `s` is not moved to the low
    /// half, as OpenSSL's own signatures are not. The private scalar `d` is read into secure heap
    /// `BIGNUM`s and one wiped buffer (the HMAC key of the nonce generator); `k` and `k⁻¹` live in
    /// secure `BIGNUM`s; all are cleared before this returns. `k⁻¹` is `k^(n−2) mod n` with
    /// `BN_mod_exp_mont_consttime`.
    func deterministicECDSASignature(for message: some Collection<UInt8>, curve: COSECurve) throws(WebAuthnError)
        -> [UInt8]
    {
        guard curve == .p256 else {
            throw WebAuthnError(.unsupportedAlgorithm, "deterministic ECDSA signs on P-256 (ES256), not \(curve)")
        }
        let digest = SHA256Digest.hash(message)
        let group = try check(
            EC_GROUP_new_by_curve_name(OBJ_txt2nid(curve.openSSLName)), .cryptoFailure,
            "EC_GROUP_new_by_curve_name(\(curve))")
        defer { EC_GROUP_free(group) }
        let context = try check(BN_CTX_secure_new(), .cryptoFailure, "BN_CTX_secure_new")
        defer { BN_CTX_free(context) }
        let order = try check(EC_GROUP_get0_order(group), .cryptoFailure, "EC_GROUP_get0_order")
        var orderBytes = [UInt8](repeating: 0, count: Int(ccrypto_bn_num_bytes(order)))
        BN_bn2bin(order, &orderBytes)

        var privateScalar: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, OSSL_PKEY_PARAM_PRIV_KEY, &privateScalar) == 1, let privateScalar
        else {
            throw libcryptoError(.cryptoFailure, "EVP_PKEY_get_bn_param(priv)")
        }
        defer { BN_clear_free(privateScalar) }
        BN_set_flags(privateScalar, BN_FLG_CONSTTIME)
        let nonces = try Self.nonces(privateScalar, digest: digest, order: orderBytes)

        // e: the digest as an integer (SHA-256 is exactly as long as P-256's order), reduced.
        let e = try check(BN_bin2bn(digest, Int32(digest.count), nil), .cryptoFailure, "BN_bin2bn(e)")
        defer { BN_free(e) }
        try check(BN_nnmod(e, e, order, context), .cryptoFailure, "BN_nnmod(e)")
        while true {
            if let signature = try Self.sign(
                e: e, privateScalar: privateScalar, nonce: nonces.next(), group: group, order: order,
                context: context)
            {
                return signature
            }
        }
    }

    /// The nonce generator, keyed by `int2octets(d)` in a buffer wiped when it is seeded.
    private static func nonces(_ privateScalar: OpaquePointer, digest: [UInt8], order: [UInt8]) throws(WebAuthnError)
        -> DeterministicNonces
    {
        let scalar = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: order.count)
        scalar.initialize(repeating: 0)
        defer {
            secureZero(UnsafeMutableRawBufferPointer(scalar))
            scalar.deallocate()
        }
        guard BN_bn2binpad(privateScalar, scalar.baseAddress, Int32(order.count)) == Int32(order.count) else {
            throw libcryptoError(.cryptoFailure, "BN_bn2binpad(priv)")
        }
        return DeterministicNonces(privateKey: scalar, digest: digest, order: order)
    }

    /// One signing attempt with the candidate `nonce` (wiped here): the DER signature, or `nil` when
    /// `r` or `s` is 0 and the next candidate must be taken.
    private static func sign(
        e: OpaquePointer, privateScalar: OpaquePointer, nonce: [UInt8], group: OpaquePointer, order: OpaquePointer,
        context: OpaquePointer
    ) throws(WebAuthnError) -> [UInt8]? {
        var nonce = nonce
        let k = try check(BN_secure_new(), .cryptoFailure, "BN_secure_new")
        defer { BN_clear_free(k) }
        let converted = BN_bin2bn(nonce, Int32(nonce.count), k)
        secureZero(&nonce)
        _ = try check(converted, .cryptoFailure, "BN_bin2bn(k)")
        BN_set_flags(k, BN_FLG_CONSTTIME)

        // R = k·G; r = R.x mod n.
        let point = try check(EC_POINT_new(group), .cryptoFailure, "EC_POINT_new")
        defer { EC_POINT_clear_free(point) }
        try check(EC_POINT_mul(group, point, k, nil, nil, context), .cryptoFailure, "EC_POINT_mul(k·G)")
        let r = try check(BN_new(), .cryptoFailure, "BN_new")
        var rOwned = true
        defer { if rOwned { BN_free(r) } }
        try check(
            EC_POINT_get_affine_coordinates(group, point, r, nil, context), .cryptoFailure,
            "EC_POINT_get_affine_coordinates")
        try check(BN_nnmod(r, r, order, context), .cryptoFailure, "BN_nnmod(r)")
        guard BN_is_zero(r) == 0 else {
            return nil
        }

        // k⁻¹ = k^(n−2) mod n, n prime (Fermat), in constant time.
        let exponent = try check(BN_dup(order), .cryptoFailure, "BN_dup(n)")
        defer { BN_free(exponent) }
        try check(BN_sub_word(exponent, 2), .cryptoFailure, "BN_sub_word")
        let inverse = try check(BN_secure_new(), .cryptoFailure, "BN_secure_new")
        defer { BN_clear_free(inverse) }
        try check(
            BN_mod_exp_mont_consttime(inverse, k, exponent, order, context, nil), .cryptoFailure,
            "BN_mod_exp_mont_consttime(k⁻¹)")

        // s = k⁻¹ · (e + r·d) mod n.
        let sum = try check(BN_secure_new(), .cryptoFailure, "BN_secure_new")
        defer { BN_clear_free(sum) }
        try check(BN_mod_mul(sum, r, privateScalar, order, context), .cryptoFailure, "BN_mod_mul(r·d)")
        try check(BN_mod_add(sum, sum, e, order, context), .cryptoFailure, "BN_mod_add(e + r·d)")
        let s = try check(BN_new(), .cryptoFailure, "BN_new")
        var sOwned = true
        defer { if sOwned { BN_free(s) } }
        try check(BN_mod_mul(s, inverse, sum, order, context), .cryptoFailure, "BN_mod_mul(s)")
        guard BN_is_zero(s) == 0 else {
            return nil
        }

        let signature = try check(ECDSA_SIG_new(), .cryptoFailure, "ECDSA_SIG_new")
        defer { ECDSA_SIG_free(signature) }
        try check(ECDSA_SIG_set0(signature, r, s), .cryptoFailure, "ECDSA_SIG_set0")
        (rOwned, sOwned) = (false, false)
        return try derEncoding(.cryptoFailure, "i2d_ECDSA_SIG") { i2d_ECDSA_SIG(signature, $0) }
    }
}
