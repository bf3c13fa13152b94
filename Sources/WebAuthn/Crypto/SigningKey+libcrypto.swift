private import CCrypto
import Synchronization

extension EVPKey {
    /// A fresh key pair: for an EC curve, from the curve's domain parameters made once
    /// (``ECParameters``; naming the group for every key builds the group again, half the cost of
    /// a P-256 key, issue 13); for an OKP curve, by the algorithm's name ("ED25519").
    static func generate(curve: COSECurve) throws(WebAuthnError) -> EVPKey {
        let context: OpaquePointer
        if curve.keyType == .ec2 {
            context = try check(
                EVP_PKEY_CTX_new_from_pkey(nil, try ECParameters.shared.key(for: curve).pointer, nil), .cryptoFailure,
                "EVP_PKEY_CTX_new_from_pkey(\(curve))")
        } else {
            context = try check(
                EVP_PKEY_CTX_new_from_name(nil, curve.openSSLName, nil), .cryptoFailure,
                "EVP_PKEY_CTX_new_from_name(\(curve))")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try check(EVP_PKEY_keygen_init(context), .cryptoFailure, "EVP_PKEY_keygen_init")
        var key: OpaquePointer?
        try check(EVP_PKEY_generate(context, &key), .cryptoFailure, "EVP_PKEY_generate(\(curve))")
        return EVPKey(taking: try check(key, .cryptoFailure, "EVP_PKEY_generate(\(curve))"))
    }

    /// A fresh RSA key pair with e = 65537, for tests of RS* and PS* verification.
    static func generateRSA(bits: UInt32) throws(WebAuthnError) -> EVPKey {
        EVPKey(taking: try check(ccrypto_rsa_generate(bits), .cryptoFailure, "RSA-\(bits) key generation"))
    }

    /// A key pair from raw private bytes: an EC scalar (public point computed in
    /// `ccrypto_ec_private_key`, which rejects 0 and values ≥ n) or an Ed25519/Ed448 seed.
    convenience init(rawPrivateKey: some Collection<UInt8>, curve: COSECurve) throws(WebAuthnError) {
        let pointer = withSecretBytes(rawPrivateKey) { secret in
            curve.keyType == .ec2
                ? ccrypto_ec_private_key(curve.openSSLName, secret.baseAddress, secret.count)
                : EVP_PKEY_new_raw_private_key_ex(nil, curve.openSSLName, nil, secret.baseAddress, secret.count)
        }
        self.init(taking: try check(pointer, .invalidKey, "\(curve) private key"))
    }

    /// Reads a PKCS#8 `PrivateKeyInfo` (RFC 5208 §5) that must fill `der` exactly.
    convenience init(pkcs8 der: [UInt8]) throws(WebAuthnError) {
        let pointer = try der.withUnsafeBufferPointer { (der) throws(WebAuthnError) -> OpaquePointer in
            var cursor = der.baseAddress
            let info = try check(
                d2i_PKCS8_PRIV_KEY_INFO(nil, &cursor, der.count), .invalidKey, "d2i_PKCS8_PRIV_KEY_INFO")
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            guard cursor == der.baseAddress.map({ $0 + der.count }) else {
                throw WebAuthnError(.invalidKey, "PKCS#8 key has trailing bytes")
            }
            return try check(EVP_PKCS82PKEY(info), .invalidKey, "EVP_PKCS82PKEY")
        }
        self.init(taking: pointer)
    }

    /// The key as PKCS#8 `PrivateKeyInfo` DER (RFC 5208 §5) for every key type (`i2d_PrivateKey`
    /// would write SEC 1 `ECPrivateKey` for EC keys). The caller wipes the result.
    func pkcs8() throws(WebAuthnError) -> [UInt8] {
        let info = try check(EVP_PKEY2PKCS8(pointer), .cryptoFailure, "EVP_PKEY2PKCS8")
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return try derEncoding(.cryptoFailure, "i2d_PKCS8_PRIV_KEY_INFO") { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// The raw private key: the EC scalar `d`, left-padded to the curve's length (SEC 1 §2.3.7),
    /// or the Ed25519/Ed448 seed. The caller wipes the result.
    func rawPrivateKey(curve: COSECurve) throws(WebAuthnError) -> [UInt8] {
        var raw = [UInt8](repeating: 0, count: curve.coordinateLength)
        if curve.keyType == .okp {
            var length = raw.count
            guard EVP_PKEY_get_raw_private_key(pointer, &raw, &length) == 1, length == raw.count else {
                throw libcryptoError(.cryptoFailure, "EVP_PKEY_get_raw_private_key(\(curve))")
            }
            return raw
        }
        var scalar: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, OSSL_PKEY_PARAM_PRIV_KEY, &scalar) == 1, let scalar else {
            throw libcryptoError(.cryptoFailure, "EVP_PKEY_get_bn_param(priv)")
        }
        defer { BN_clear_free(scalar) }
        guard BN_bn2binpad(scalar, &raw, Int32(raw.count)) == Int32(raw.count) else {
            throw libcryptoError(.cryptoFailure, "BN_bn2binpad(priv)")
        }
        return raw
    }

    /// Signs with one-shot `EVP_DigestSign` on a copy of the key's signing template: for ECDSA the DER signature over the algorithm's hash,
    /// for EdDSA the RFC 8032 signature of the whole message.
    func signature(for message: some Collection<UInt8>, algorithm: COSEAlgorithm) throws(WebAuthnError) -> [UInt8] {
        let context = try digestContext(signing: true, algorithm: algorithm)
        defer { EVP_MD_CTX_free(context) }
        return try withBorrowedBytes(message) { (message) throws(WebAuthnError) -> [UInt8] in
            var length = 0
            try check(
                EVP_DigestSign(context, nil, &length, message.baseAddress, message.count), .cryptoFailure,
                "EVP_DigestSign(\(algorithm)) length")
            var signature = [UInt8](repeating: 0, count: length)
            try check(
                EVP_DigestSign(context, &signature, &length, message.baseAddress, message.count), .cryptoFailure,
                "EVP_DigestSign(\(algorithm))")
            return Array(signature.prefix(length))
        }
    }
}

/// The domain parameters of each EC curve as an `EVP_PKEY` (`EVP_PKEY_paramgen` with the group's
/// name), made once per process and only read after: new keys are generated from them.
final class ECParameters: Sendable {
    static let shared = ECParameters()
    private let keys = Mutex<[COSECurve: EVPKey]>([:])

    /// The parameters of `curve`, made on first use.
    func key(for curve: COSECurve) throws(WebAuthnError) -> EVPKey {
        try keys.withLock { (keys) throws(WebAuthnError) -> EVPKey in
            if let key = keys[curve] {
                return key
            }
            let context = try check(
                EVP_PKEY_CTX_new_from_name(nil, "EC", nil), .cryptoFailure, "EVP_PKEY_CTX_new_from_name(EC)")
            defer { EVP_PKEY_CTX_free(context) }
            try check(EVP_PKEY_paramgen_init(context), .cryptoFailure, "EVP_PKEY_paramgen_init")
            try check(
                EVP_PKEY_CTX_set_group_name(context, curve.openSSLName), .cryptoFailure, "EVP_PKEY_CTX_set_group_name")
            var parameters: OpaquePointer?
            try check(EVP_PKEY_paramgen(context, &parameters), .cryptoFailure, "EVP_PKEY_paramgen(\(curve))")
            let key = EVPKey(taking: try check(parameters, .cryptoFailure, "EVP_PKEY_paramgen(\(curve))"))
            keys[curve] = key
            return key
        }
    }
}
