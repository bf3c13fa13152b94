import Testing
import WebAuthn

@Suite struct CryptoAESCBCTests {
    /// NIST SP 800-38A Appendix F.2.5 (CBC-AES256.Encrypt) and F.2.6 (CBC-AES256.Decrypt).
    @Test func sp800_38aF25() throws {
        let key = try SecretKey(bytes: hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"))
        let iv = try hex("000102030405060708090a0b0c0d0e0f")
        let plaintext = try hex(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
        let ciphertext = try hex(
            "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
                + "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b")
        #expect(try AESCBC.encrypt(plaintext, key: key, iv: iv) == ciphertext)
        #expect(try AESCBC.decrypt(ciphertext, key: key, iv: iv) == plaintext)
        #expect(try AESCBC.encrypt(plaintext[16...], key: key, iv: ciphertext[..<16]) == Array(ciphertext[16...]))
        #expect(try AESCBC.encrypt([UInt8](), key: key, iv: iv).isEmpty)
    }

    @Test(arguments: [1, 15, 17, 33])
    func partialBlocksAreRefused(length: Int) {
        let input = [UInt8](repeating: 0x5a, count: length)
        let iv = [UInt8](repeating: 0, count: 16)
        #expect(throws: WebAuthnError(.invalidLength, "")) {
            try AESCBC.encrypt(input, key: SecretKey.random(), iv: iv)
        }
        #expect(throws: WebAuthnError(.invalidLength, "")) {
            try AESCBC.decrypt(input, key: SecretKey.random(), iv: iv)
        }
    }

    @Test(arguments: [0, 12, 15, 17, 32])
    func ivsOtherThanOneBlockAreRefused(length: Int) {
        let iv = [UInt8](repeating: 0, count: length)
        #expect(throws: WebAuthnError(.invalidLength, "")) {
            try AESCBC.encrypt([UInt8](repeating: 0, count: 16), key: SecretKey.random(), iv: iv)
        }
        #expect(throws: WebAuthnError(.invalidLength, "")) {
            try AESCBC.decrypt([UInt8](repeating: 0, count: 16), key: SecretKey.random(), iv: iv)
        }
    }
}
