import PasskeyPKCS11
import TestSupport
import Testing
import WebAuthn

/// Keys made and used in a SoftHSM2 token through the PKCS#11 API: each signs as WebAuthn
/// verifies, never leaves the token, and every failure (wrong PIN, no token, no module, no key) is
/// a typed error.
@Suite(.serialized) struct PKCS11TokenTests {
    private func token(pin: String = SoftHSMToken.pin) async throws -> PKCS11Token {
        try await SoftHSMToken.prepare()
        return try await PKCS11Token.open(
            module: PKCS11Module.load(SoftHSMToken.module), label: SoftHSMToken.label, pin: PKCS11PIN(pin))
    }

    @Test(arguments: [COSEAlgorithm.es256, .eddsa])
    func aKeyMadeOnTheTokenSignsAsWebAuthnVerifies(_ algorithm: COSEAlgorithm) async throws {
        let token = try await token()
        let id = SecureRandom.bytes(16)
        let publicKey = try await token.generateKeyPair(id: id, algorithm: algorithm)
        #expect(publicKey.algorithm == algorithm)
        #expect(try await token.publicKey(keyID: id, algorithm: algorithm).bytes == publicKey.bytes)
        for _ in 0..<3 {
            let message = SecureRandom.bytes(69)
            let signature = try await token.sign(message, keyID: id, algorithm: algorithm)
            #expect(try publicKey.isValidSignature(signature, for: message))
            #expect(!(try publicKey.isValidSignature(signature, for: message + [0])))
        }
        try await token.deleteKeyPair(keyID: id)
        await #expect(throws: PKCS11Error(.keyNotFound, "")) {
            try await token.sign([1], keyID: id, algorithm: algorithm)
        }
    }

    @Test func thePrivateKeyNeverLeavesTheToken() async throws {
        let token = try await token()
        let id = SecureRandom.bytes(16)
        _ = try await token.generateKeyPair(id: id, algorithm: .es256)
        let error = await #expect(throws: PKCS11Error.self) { try await token.privateKeyValue(keyID: id) }
        #expect(error?.returnValue == 0x11, "CKR_ATTRIBUTE_SENSITIVE: \(String(describing: error))")
        try await token.deleteKeyPair(keyID: id)
    }

    @Test func concurrentSignaturesAreAllValid() async throws {
        let token = try await token()
        let id = SecureRandom.bytes(16)
        let publicKey = try await token.generateKeyPair(id: id, algorithm: .es256)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    return try publicKey.isValidSignature(
                        try await token.sign(message, keyID: id, algorithm: .es256), for: message)
                }
            }
            for try await valid in group {
                #expect(valid)
            }
        }
        try await token.deleteKeyPair(keyID: id)
    }

    @Test func eachFailureIsATypedError() async throws {
        await #expect(throws: PKCS11Error(.wrongPIN, "")) { try await token(pin: "000000") }
        await #expect(throws: PKCS11Error(.tokenNotFound, "")) {
            try await PKCS11Token.open(
                module: PKCS11Module.load(SoftHSMToken.module), label: "no-such-token", pin: PKCS11PIN("1"))
        }
        #expect(throws: PKCS11Error(.moduleUnavailable, "")) { try PKCS11Module.load("/nonexistent/libpkcs11.so") }
        #expect(throws: PKCS11Error(.moduleUnavailable, "")) {
            try PKCS11Module.load("/usr/lib/x86_64-linux-gnu/libz.so.1")
        }
        let opened = try await token()
        await #expect(throws: PKCS11Error(.unsupportedMechanism, "")) {
            try await opened.generateKeyPair(id: [1], algorithm: .rs256)
        }
        #expect(String(describing: PKCS11PIN("secret")) == "<redacted>")
    }
}
