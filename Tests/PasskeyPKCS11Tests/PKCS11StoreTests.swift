import Foundation
import PasskeyAuthenticator
import PasskeyPKCS11
import TestSupport
import Testing
import WebAuthn

/// The software authenticator over a file store whose keys a SoftHSM2 token keeps
/// (``PKCS11KeyCustody``): registrations and assertions verify, the counter is the store's, keys
/// never leave the token, deleting a credential destroys its key, and a record is only ever
/// used with its own custody.
@Suite(.serialized) struct PKCS11StoreTests {
    private static let origin = try! WebOrigin("https://example.com")

    private func store(_ directory: TemporaryDirectory) async throws -> (FileCredentialStore, PKCS11Token) {
        try await SoftHSMToken.prepare()
        let token = try await PKCS11Token.open(
            module: PKCS11Module.load(SoftHSMToken.module), label: SoftHSMToken.label,
            pin: PKCS11PIN(SoftHSMToken.pin))
        let store = try await FileCredentialStore(
            directory: directory.appending("store"), custody: PKCS11KeyCustody(token: token))
        return (store, token)
    }

    private static func creationOptions(_ algorithm: COSEAlgorithm, challenge: [UInt8])
        -> PublicKeyCredentialCreationOptionsJSON
    {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.com"),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(SecureRandom.bytes(8)), name: "ada", displayName: "Ada"),
            challenge: Base64URL(challenge), pubKeyCredParams: [PublicKeyCredentialParameters(alg: algorithm.rawValue)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required), attestation: .direct)
    }

    @Test(.temporaryDirectory, arguments: [COSEAlgorithm.es256, .eddsa])
    func aTokenKeyRegistersAndSignsAndCounts(_ algorithm: COSEAlgorithm) async throws {
        let directory = try TemporaryDirectory.current
        let (store, token) = try await store(directory)
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: store, profile: PKCS11KeyCustody.profile))
        let relyingParty = RelyingParty(id: "example.com")
        let challenge = SecureRandom.bytes(32)
        let registration = try await client.create(
            Self.creationOptions(algorithm, challenge: challenge), origin: Self.origin)
        let verified = try relyingParty.verifyRegistration(registration, challenge: challenge)
        #expect(verified.algorithm == algorithm && verified.format == .packed)
        var record = verified.record()
        for expected in UInt32(1)...3 {
            let request = PublicKeyCredentialRequestOptionsJSON(
                challenge: Base64URL(SecureRandom.bytes(32)), rpId: "example.com")
            let assertion = try await client.get(request, origin: Self.origin)
            let signed = try relyingParty.verifyAuthentication(
                assertion, challenge: request.challenge.bytes, credential: record)
            #expect(signed.signCount == expected)
            record.signCount = signed.signCount
        }
        let id = verified.credentialID
        let stored = try #require(try await store.credential(id: id))
        await #expect(throws: StoreError(.unsupported, "")) { try await store.exportPrivateKey(of: stored) }
        await #expect(throws: PKCS11Error.self) { try await token.privateKeyValue(keyID: id) }
        for file in try FileManager.default.subpathsOfDirectory(atPath: directory.appending("store")) {
            let path = directory.appending("store/" + file)
            let bytes = FileManager.default.contents(atPath: path) ?? Data()
            #expect(!String(decoding: bytes, as: UTF8.self).contains("PRIVATE"), "\(file)")
        }
        try await store.delete(id: id)
        await #expect(throws: PKCS11Error(.keyNotFound, "")) {
            try await token.sign([1], keyID: id, algorithm: algorithm)
        }
    }

    @Test(.temporaryDirectory) func aRecordIsOnlyUsedWithItsOwnCustody() async throws {
        let directory = try TemporaryDirectory.current
        let (store, _) = try await store(directory)
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: store, profile: PKCS11KeyCustody.profile))
        let registration = try await client.create(
            Self.creationOptions(.es256, challenge: SecureRandom.bytes(32)), origin: Self.origin)
        let opening = await #expect(throws: StoreError(.unsupported, "")) {
            try await FileCredentialStore(directory: directory.appending("store"))
        }
        #expect(opening?.reason.contains("pkcs11:\(SoftHSMToken.label)") == true, "\(String(describing: opening))")
        _ = try await FileCredentialStore(directory: directory.appending("software"))
        await #expect(throws: StoreError(.unsupported, "")) {
            try await FileCredentialStore(
                directory: directory.appending("software"), custody: store.custody as? PKCS11KeyCustody)
        }
        #expect(try await store.credential(id: registration.rawId.bytes) != nil)
        let rsa = Self.creationOptions(.rs256, challenge: SecureRandom.bytes(32))
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await client.create(rsa, origin: Self.origin)
        }
        await #expect(throws: StoreError(.unsupported, "")) {
            try await store.importCredential(
                privateKey: .generate(.es256), as: CredentialTemplate(id: [9], rpID: "example.com", profile: "pkcs11"))
        }
    }
}
