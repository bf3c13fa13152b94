import PasskeyAuthenticator
import TestSupport
import Testing
import WebAuthn

/// RS256 and PS256 credentials (RFC 8812 §2, RFC 8230 §2): RSA-2048 keys made with OpenSSL,
/// sealed like the others, chosen in the relying party's order, verified by the relying party.
@Suite struct RSACredentialTests {
    @Test(.temporaryDirectory, arguments: [COSEAlgorithm.rs256, .ps256])
    func anRSACredentialRegistersAndSignsInEveryStore(_ algorithm: COSEAlgorithm) async throws {
        let directory = try TemporaryDirectory.current
        let stores: [any CredentialStore] = [
            InMemoryCredentialStore(), try await FileCredentialStore(directory: directory.appending("store")),
        ]
        for store in stores {
            let ceremony = Ceremony(SoftwareAuthenticator(store: store, profile: .securityKey))
            let (response, verified) = try await ceremony.register(
                Ceremony.creationOptions(algorithms: [algorithm, .es256], attestation: .direct))
            #expect(verified.algorithm == algorithm)
            #expect(verified.format == .packed)
            #expect(response.response.publicKeyAlgorithm == algorithm.rawValue)
            let key = try COSEKey(bytes: verified.credentialPublicKey)
            guard case .rsa(let n, _) = key.parameters else {
                Issue.record("not an RSA key: \(key)")
                continue
            }
            #expect(n.count == 256, "RSA-2048")
            let (_, assertion) = try await ceremony.authenticate(verified.record())
            #expect(assertion.signCount == 1)
        }
    }

    @Test func theRelyingPartysOrderChooses() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .securityKey))
        let (_, rsaFirst) = try await ceremony.register(
            Ceremony.creationOptions(user: "a", userID: [1], algorithms: [.rs256, .es256]))
        #expect(rsaFirst.algorithm == .rs256)
        let (_, ecFirst) = try await ceremony.register(
            Ceremony.creationOptions(user: "b", userID: [2], algorithms: [.es256, .rs256]))
        #expect(ecFirst.algorithm == .es256)
        let platform = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore()))
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await platform.register(Ceremony.creationOptions(algorithms: [.rs256]))
        }
    }

    @Test func anRSAKeyTravelsAsPKCS8() throws {
        let key = try SigningKey.generate(.ps256)
        let copy = try SigningKey(pkcs8: key.exportedPKCS8(), rsaAlgorithm: .ps256)
        #expect(copy.algorithm == .ps256)
        #expect(try copy.publicKey.spki == key.publicKey.spki)
        #expect(throws: WebAuthnError.self) { try SigningKey(pkcs8: key.exportedPKCS8(), rsaAlgorithm: .es256) }
    }
}
