private import CCrypto

extension EVPKey {
    /// Plain ECDH (`EVP_PKEY_derive`, no cofactor, no KDF): the x-coordinate of the shared point,
    /// left-padded to the field size. `EVP_PKEY_derive_set_peer_ex` with validation on checks the
    /// peer is a valid point of the same group.
    func derive(with peer: EVPKey) throws(WebAuthnError) -> [UInt8] {
        let context = try check(EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil), .cryptoFailure, "EVP_PKEY_CTX_new")
        defer { EVP_PKEY_CTX_free(context) }
        try check(EVP_PKEY_derive_init(context), .cryptoFailure, "EVP_PKEY_derive_init")
        try check(EVP_PKEY_derive_set_peer_ex(context, peer.pointer, 1), .invalidKey, "EVP_PKEY_derive_set_peer_ex")
        var length = 0
        try check(EVP_PKEY_derive(context, nil, &length), .cryptoFailure, "EVP_PKEY_derive length")
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1, length == secret.count else {
            secureZero(&secret)
            throw libcryptoError(.cryptoFailure, "EVP_PKEY_derive")
        }
        return secret
    }
}
