private import CCrypto

extension COSEKey {
    /// Reads a public key from a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7), as X.509
    /// certificates and WebAuthn's `getPublicKey()` carry it.
    ///
    /// EC keys on P-256, P-384 and P-521 become EC2 keys with coordinates left-padded to the
    /// curve's length; Ed25519 and Ed448 keys become OKP keys; RSA keys become RSA keys whose `n`
    /// and `e` are big-endian without leading zeros (RFC 8230 §4).
    ///
    /// - Parameters:
    ///   - spki: the DER bytes, and nothing after them.
    ///   - algorithm: the algorithm to record in the key, if known.
    /// - Throws: `WebAuthnError` with `invalid-key` for bytes OpenSSL cannot read,
    ///   `unsupported-algorithm` for another key type or curve, or `malformed-cose-key` when
    ///   `algorithm` does not fit the key.
    public init(spki: some Collection<UInt8>, algorithm: COSEAlgorithm?) throws(WebAuthnError) {
        if let parameters = KeyDERTemplate.parameters(spki: spki) {
            // The point is checked where it is used: OpenSSL imports it to verify.
            self = try COSEKey(checking: algorithm, parameters)
            return
        }
        let key = try withBorrowedBytes(spki) { (der) throws(WebAuthnError) -> EVPKey in
            var cursor = der.baseAddress
            let pointer = try check(d2i_PUBKEY(nil, &cursor, der.count), .invalidKey, "d2i_PUBKEY")
            let key = EVPKey(taking: pointer)
            guard cursor == der.baseAddress.map({ $0 + der.count }) else {
                throw WebAuthnError(.invalidKey, "SubjectPublicKeyInfo has trailing bytes")
            }
            return key
        }
        self = try key.publicCOSEKey(algorithm: algorithm)
    }

    /// The key as a DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    ///
    /// - Throws: `WebAuthnError` with `invalid-key` for parameters OpenSSL rejects (an EC point off
    ///   its curve, for example) or `unsupported-algorithm` for X25519 and X448.
    public var spki: [UInt8] {
        get throws(WebAuthnError) {
            if let der = KeyDERTemplate.spki(parameters) {
                try checkTemplatePoint()
                return der
            }
            return try ImportedPublicKeys.shared.key(self).spkiFromOpenSSL()
        }
    }

    /// Refuses what importing the key would refuse, for the two template keys: a P-256 point off
    /// the curve, checked against one group built once (building a group for an import costs
    /// more than a new key's generation, issue 13); an Ed25519 key is 32 bytes, which OpenSSL
    /// takes as they are.
    private func checkTemplatePoint() throws(WebAuthnError) {
        guard case .ec2(.p256, let x, let y) = parameters else {
            return
        }
        let encoded = [0x04] + x + y
        guard let group = P256Group.shared.pointer, let point = EC_POINT_new(group) else {
            throw libcryptoError(.cryptoFailure, "EC_POINT_new(P-256)")
        }
        defer { EC_POINT_free(point) }
        guard EC_POINT_oct2point(group, point, encoded, encoded.count, nil) == 1 else {
            throw libcryptoError(.invalidKey, "building a \(keyType) public key")
        }
    }

    /// Checks a signature made with the key's ``algorithm``.
    ///
    /// ES256, ES384 and ES512 take the DER `Ecdsa-Sig-Value` (WebAuthn L3 §6.5.6), EdDSA the
    /// 64-byte (Ed25519) or 114-byte (Ed448) signature of RFC 8032, RS* PKCS#1 v1.5 (RFC 8812) and
    /// PS* RSASSA-PSS with MGF1 over the same hash and a salt as long as the digest (RFC 8230).
    ///
    /// - Parameters:
    ///   - signature: the signature bytes.
    ///   - message: the signed bytes (for WebAuthn assertions, `authenticatorData ‖ SHA-256(clientDataJSON)`).
    /// - Returns: whether the signature is valid; a malformed signature is simply not valid.
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` when the key names no algorithm,
    ///   `malformed-cose-key` when the algorithm does not fit the key, or `invalid-key` when
    ///   OpenSSL rejects the key.
    public func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>)
        throws(WebAuthnError) -> Bool
    {
        try PreparedPublicKey(self).isValidSignature(signature, for: message)
    }
}

/// A public key imported into OpenSSL once, to verify many signatures with: what a relying
/// party holding a credential's key in memory does (``ImportedPublicKeys`` keeps them).
///
/// ECDSA and RSA signatures are verified on the message's hash with a context prepared for the
/// key (``DigestVerifier``); EdDSA, which signs the message itself, with `EVP_DigestVerify`.
package struct PreparedPublicKey: Sendable {
    private let key: EVPKey
    private let algorithm: COSEAlgorithm
    private let verifier: DigestVerifier?

    /// Imports a COSE key (through ``ImportedPublicKeys/shared``).
    ///
    /// - Throws: `WebAuthnError` with `unsupported-algorithm` when the key names no algorithm,
    ///   `malformed-cose-key` or `invalid-key` when OpenSSL rejects it.
    package init(_ publicKey: COSEKey) throws(WebAuthnError) {
        try self.init(publicKey, importingInto: .shared)
    }

    /// Imports a COSE key through `table`.
    init(_ publicKey: COSEKey, importingInto table: ImportedPublicKeys) throws(WebAuthnError) {
        guard let algorithm = publicKey.algorithm else {
            throw WebAuthnError(.unsupportedAlgorithm, "key names no algorithm")
        }
        let key = try table.key(publicKey)
        self.key = key
        self.algorithm = algorithm
        self.verifier = try key.digestVerifier(algorithm)
    }

    /// Verifies a signature as ``COSEKey/isValidSignature(_:for:)`` does.
    package func isValidSignature(_ signature: some Collection<UInt8>, for message: some Collection<UInt8>)
        throws(WebAuthnError) -> Bool
    {
        try withBorrowedBytes(signature) { (signature) throws(WebAuthnError) -> Bool in
            try withBorrowedBytes(message) { (message) throws(WebAuthnError) -> Bool in
                try isValidSignature(signature, for: message, followedBy: UnsafeBufferPointer(rebasing: message[0..<0]))
            }
        }
    }

    /// Verifies a signature of `message ‖ rest` without joining them: an assertion's
    /// `authenticatorData ‖ SHA-256(clientDataJSON)` (WebAuthn L3 §7.2 step 20).
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8], followedBy rest: [UInt8])
        throws(WebAuthnError) -> Bool
    {
        guard verifier != nil else {
            return try isValidSignature(signature, for: message + rest)
        }
        return try withBorrowedBytes(signature) { (signature) throws(WebAuthnError) -> Bool in
            try withBorrowedBytes(message) { (message) throws(WebAuthnError) -> Bool in
                try withBorrowedBytes(rest) { (rest) throws(WebAuthnError) -> Bool in
                    try isValidSignature(signature, for: message, followedBy: rest)
                }
            }
        }
    }

    private func isValidSignature(
        _ signature: UnsafeBufferPointer<UInt8>, for message: UnsafeBufferPointer<UInt8>,
        followedBy rest: UnsafeBufferPointer<UInt8>
    ) throws(WebAuthnError) -> Bool {
        if let verifier {
            return try verifier.isValidSignature(signature, for: message, followedBy: rest)
        }
        precondition(rest.isEmpty, "EdDSA verifies one message")  // the two-part caller joins them
        let context = try key.digestContext(signing: false, algorithm: algorithm)
        defer { EVP_MD_CTX_free(context) }
        let result = EVP_DigestVerify(
            context, signature.baseAddress, signature.count, message.baseAddress, message.count)
        // 0 is a wrong signature, a negative value one OpenSSL could not even parse (bad DER):
        // both are answers, not errors.
        discardLibcryptoErrors()
        return result == 1
    }
}

extension EVPKey {
    /// The public key as a SubjectPublicKeyInfo, encoded by OpenSSL (`i2d_PUBKEY`).
    func spkiFromOpenSSL() throws(WebAuthnError) -> [UInt8] {
        try derEncoding(.invalidKey, "i2d_PUBKEY") { i2d_PUBKEY(pointer, $0) }
    }
}

extension COSECurve {
    /// OpenSSL's name for the curve: the group name of an EC key, the key type of an OKP key.
    var openSSLName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        case .x25519: "X25519"
        case .x448: "X448"
        case .ed25519: "ED25519"
        case .ed448: "ED448"
        }
    }

    /// The curve of an OpenSSL EC group name (short or NIST name).
    init?(openSSLGroupName name: String) {
        switch name {
        case "prime256v1", "P-256": self = .p256
        case "secp384r1", "P-384": self = .p384
        case "secp521r1", "P-521": self = .p521
        default: return nil
        }
    }
}

extension EVPKey {
    /// Builds an OpenSSL public key from COSE parameters: EC through `EVP_PKEY_fromdata`
    /// (which checks the point is on the curve), OKP from its raw bytes, RSA from `n` and `e`.
    convenience init(publicKey: COSEKey) throws(WebAuthnError) {
        let pointer: OpaquePointer?
        switch publicKey.parameters {
        case .ec2(let curve, let x, let y):
            guard x.count == curve.coordinateLength, y.count == curve.coordinateLength else {
                throw WebAuthnError(.invalidKey, "\(curve) coordinates are \(curve.coordinateLength) bytes each")
            }
            let point = [0x04] + x + y
            pointer = ccrypto_ec_public_key(curve.openSSLName, point, point.count)
        case .okp(let curve, let x):
            guard curve == .ed25519 || curve == .ed448 else {
                throw WebAuthnError(.unsupportedAlgorithm, "\(curve) is not a signature curve")
            }
            guard x.count == curve.coordinateLength else {
                throw WebAuthnError(.invalidKey, "an \(curve) public key is \(curve.coordinateLength) bytes")
            }
            pointer = EVP_PKEY_new_raw_public_key_ex(nil, curve.openSSLName, nil, x, x.count)
        case .rsa(let n, let e):
            guard !n.isEmpty, !e.isEmpty else {
                throw WebAuthnError(.invalidKey, "an RSA key needs a modulus and an exponent")
            }
            pointer = ccrypto_rsa_public_key(n, n.count, e, e.count)
        }
        self.init(taking: try check(pointer, .invalidKey, "building a \(publicKey.keyType) public key"))
    }

    /// The public half of this key as a COSE_Key naming `algorithm`.
    ///
    /// EC coordinates are read as the `qx`/`qy` integers rather than sliced out of the encoded
    /// point, which OpenSSL keeps in compressed form when the key arrived compressed.
    func publicCOSEKey(algorithm: COSEAlgorithm?) throws(WebAuthnError) -> COSEKey {
        let parameters: COSEKey.Parameters
        switch EVP_PKEY_get_base_id(pointer) {
        case EVP_PKEY_EC:
            var name = [CChar](repeating: 0, count: 64)
            try check(
                EVP_PKEY_get_group_name(pointer, &name, name.count, nil), .invalidKey, "EVP_PKEY_get_group_name")
            let groupName = String(
                decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard let curve = COSECurve(openSSLGroupName: groupName) else {
                throw WebAuthnError(.unsupportedAlgorithm, "EC group \(groupName) is not supported")
            }
            if let (x, y) = uncompressedPoint(curve) {
                parameters = .ec2(curve: curve, x: x, y: y)
            } else {
                parameters = .ec2(
                    curve: curve, x: try integer(OSSL_PKEY_PARAM_EC_PUB_X, length: curve.coordinateLength),
                    y: try integer(OSSL_PKEY_PARAM_EC_PUB_Y, length: curve.coordinateLength))
            }
        case EVP_PKEY_ED25519:
            parameters = .okp(curve: .ed25519, x: try rawPublicKey(length: COSECurve.ed25519.coordinateLength))
        case EVP_PKEY_ED448:
            parameters = .okp(curve: .ed448, x: try rawPublicKey(length: COSECurve.ed448.coordinateLength))
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS:
            parameters = .rsa(n: try integer(OSSL_PKEY_PARAM_RSA_N), e: try integer(OSSL_PKEY_PARAM_RSA_E))
        case let type:
            let name = OBJ_nid2sn(type).map { String(cString: $0) } ?? "\(type)"
            throw WebAuthnError(.unsupportedAlgorithm, "key type \(name) is not supported")
        }
        return try COSEKey(checking: algorithm, parameters)
    }

    /// The coordinates of an EC key whose encoded public key is uncompressed (`04 ‖ x ‖ y`, SEC 1
    /// §2.3.3), read in one call; `nil` when OpenSSL keeps it in another form.
    private func uncompressedPoint(_ curve: COSECurve) -> (x: [UInt8], y: [UInt8])? {
        let length = curve.coordinateLength
        var encoded = [UInt8](repeating: 0, count: 1 + 2 * length)
        var written = 0
        guard
            EVP_PKEY_get_octet_string_param(
                pointer, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, &encoded, encoded.count, &written) == 1,
            written == encoded.count, encoded[0] == 0x04
        else {
            discardLibcryptoErrors()
            return nil
        }
        return (Array(encoded[1...length]), Array(encoded[(1 + length)...]))
    }

    /// A big-endian integer parameter of the key, left-padded to `length` bytes, or minimal
    /// (no leading zeros) when `length` is `nil`.
    private func integer(_ name: String, length: Int? = nil) throws(WebAuthnError) -> [UInt8] {
        var number: OpaquePointer?
        try check(EVP_PKEY_get_bn_param(pointer, name, &number), .invalidKey, "EVP_PKEY_get_bn_param(\(name))")
        defer { BN_free(number) }
        let width = length ?? Int(ccrypto_bn_num_bytes(number))
        var bytes = [UInt8](repeating: 0, count: width)
        let written = BN_bn2binpad(number, &bytes, Int32(width))
        guard written == Int32(width) else {
            throw libcryptoError(.invalidKey, "BN_bn2binpad(\(name), \(width) bytes)")
        }
        return bytes
    }

    /// The raw public key of an Ed25519 or Ed448 key (RFC 8032 §5.1.5, §5.2.5).
    private func rawPublicKey(length: Int) throws(WebAuthnError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        var count = length
        try check(EVP_PKEY_get_raw_public_key(pointer, &bytes, &count), .invalidKey, "EVP_PKEY_get_raw_public_key")
        return Array(bytes.prefix(count))
    }
}

/// The P-256 group, built once for the process (`EC_GROUP_new_by_curve_name`) and only read
/// after, to check points with.
private final class P256Group: @unchecked Sendable {
    static let shared = P256Group()
    /// The `EC_GROUP *`, or `nil` if OpenSSL could not build it.
    let pointer = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1)
}
