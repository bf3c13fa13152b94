import PasskeyAuthenticator
import Synchronization
import Testing
import WebAuthn

@testable import PasskeyCTAP

/// U2F over the command layer (FIDO U2F Raw Message Formats v1.2 §4–§6): register, every
/// authenticate mode, version, presence, and the credentials' life in CTAP2 (CTAP 2.1 §10).
@Suite struct U2FCommandTests {
    let fixture: CommandsFixture
    let client: U2FClient

    init() {
        fixture = CommandsFixture()
        client = U2FClient(device: fixture.device)
    }

    /// Registers, checks the response's layout and signature, and returns it.
    func register(application: [UInt8] = U2FClient.application) async throws -> U2FRegisterResponse {
        let challenge = SecureRandom.bytes(32)
        let response = try await client.register(challenge: challenge, application: application)
        #expect(response.status == 0x9000)
        let registration = try U2FRegisterResponse(response.data)
        #expect(registration.publicKey.count == 65 && registration.publicKey.first == 0x04)
        let certificateKey = try X509Certificate(derEncoded: registration.certificate).publicKey(algorithm: .es256)
        let signed = [0x00] + application + challenge + registration.keyHandle + registration.publicKey
        #expect(try certificateKey.isValidSignature(registration.signature, for: signed))
        return registration
    }

    @Test func versionIsU2FV2InEveryEncoding() async throws {
        for apdu in [U2FClient.apdu(ins: 0x03), [0, 3, 0, 0], [0, 3, 0, 0, 0], [0, 3, 0, 0, 0, 0, 0]] {
            let response = try await client.send(apdu)
            #expect(response.status == 0x9000 && response.data == Array("U2F_V2".utf8), "\(apdu)")
        }
        #expect(try await client.send(U2FClient.apdu(ins: 0x03, data: [1])).status == 0x6700)
    }

    @Test func aRegistrationIsAFidoU2FAttestationTheRelyingPartyVerifies() async throws {
        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.create, challenge: challenge)
        let response = try await client.register(challenge: clientData.hash)
        #expect(response.status == 0x9000)
        let registration = try U2FRegisterResponse(response.data)
        let verified = try RelyingParty(id: U2FClient.rpID).verifyRegistration(
            clientDataJSON: clientData.json,
            attestationObject: registration.attestationObject(application: U2FClient.application),
            challenge: challenge)
        #expect(verified.format == .fidoU2F && verified.credentialID == registration.keyHandle)
        #expect(verified.attestationType == .basic && !verified.isTrusted)
        // Without a batch certificate, each registration has a certificate of its own.
        let second = try await register()
        #expect(second.certificate != registration.certificate)
    }

    @Test func aBatchAttestingProfileRegistersWithItsBatchCertificate() async throws {
        let store = InMemoryCredentialStore()
        let batching = U2FClient(
            device: CTAPDevice(authenticator: SoftwareAuthenticator(store: store, profile: .cdp), credentials: store))
        let challenge = SecureRandom.bytes(32)
        let clientData = CommandsFixture.clientData(.create, challenge: challenge)
        let response = try await batching.register(challenge: clientData.hash)
        #expect(response.status == 0x9000)
        let registration = try U2FRegisterResponse(response.data)
        let batch = try await store.batchAttestation(aaguid: AuthenticatorProfile.cdp.aaguid)
        #expect(registration.certificate == batch.certificates.first)
        let root = try X509Certificate(derEncoded: try await store.attestationAuthority().certificate)
        let verified = try RelyingParty(ids: [U2FClient.rpID], trustAnchors: [.fidoU2F: [root]]).verifyRegistration(
            clientDataJSON: clientData.json,
            attestationObject: registration.attestationObject(application: U2FClient.application),
            challenge: challenge)
        #expect(verified.format == .fidoU2F && verified.isTrusted)
    }

    @Test func theCredentialIsTheStoresNonDiscoverableP256Credential() async throws {
        let registration = try await register()
        let stored = try #require(try await fixture.store.credential(id: registration.keyHandle))
        #expect(stored.algorithm == .es256 && !stored.discoverable && stored.userHandle.isEmpty)
        #expect(stored.u2fApplication == U2FClient.application && stored.profile == "security-key")
        #expect(stored.rpID == "u2f:" + Hex.encode(U2FClient.application))
        #expect(try stored.publicKey == registration.coseKey)
    }

    @Test func enforcedAuthenticationSignsWithPresenceAndACounter() async throws {
        let registration = try await register()
        var last: UInt32 = 0
        for _ in 0..<2 {
            let challenge = SecureRandom.bytes(32)
            let response = try await client.authenticate(0x03, challenge: challenge, keyHandle: registration.keyHandle)
            #expect(response.status == 0x9000)
            #expect(response.data.first == 0x01, "user presence")
            let counter = response.data[1...4].reduce(0) { $0 << 8 | UInt32($1) }
            #expect(counter > last)
            last = counter
            let signed = U2FClient.application + response.data.prefix(5) + challenge
            #expect(try registration.coseKey.isValidSignature(Array(response.data.dropFirst(5)), for: signed))
        }
    }

    @Test func dontEnforceSignsWithoutAskingAndWithPresenceClear() async throws {
        let registration = try await register()
        let denying = U2FClient(device: CommandsFixture(store: fixture.store, presence: .deny).device)
        let challenge = SecureRandom.bytes(32)
        let response = try await denying.authenticate(0x08, challenge: challenge, keyHandle: registration.keyHandle)
        #expect(response.status == 0x9000)
        #expect(response.data.first == 0x00)
        let signed = U2FClient.application + response.data.prefix(5) + challenge
        #expect(try registration.coseKey.isValidSignature(Array(response.data.dropFirst(5)), for: signed))
    }

    @Test func checkOnlyTellsOursFromForeign() async throws {
        let registration = try await register()
        let challenge = SecureRandom.bytes(32)
        let ours = try await client.authenticate(0x07, challenge: challenge, keyHandle: registration.keyHandle)
        #expect(ours.status == 0x6985 && ours.data.isEmpty)
        let foreign = try await client.authenticate(0x07, challenge: challenge, keyHandle: [1, 2, 3])
        #expect(foreign.status == 0x6A80)
        let otherApplication = try await client.authenticate(
            0x07, challenge: challenge, application: SHA256Digest.hash(Array("other.example".utf8)),
            keyHandle: registration.keyHandle)
        #expect(otherApplication.status == 0x6A80)
        // Check-only signs nothing: the counter has not moved.
        #expect(try await fixture.store.credential(id: registration.keyHandle)?.signCount == 0)
    }

    @Test(arguments: [UInt8(0x03), 0x08])
    func aForeignApplicationParameterIsWrongData(p1: UInt8) async throws {
        let registration = try await register()
        let response = try await client.authenticate(
            p1, challenge: SecureRandom.bytes(32), application: SHA256Digest.hash(Array("other.example".utf8)),
            keyHandle: registration.keyHandle)
        #expect(response.status == 0x6A80)
    }

    @Test func aCTAP2CredentialIsNoU2FCredential() async throws {
        let registration = try await fixture.register(residentKey: false)
        let response = try await client.authenticate(
            0x03, challenge: SecureRandom.bytes(32), application: SHA256Digest.hash(Array(CommandsFixture.rpID.utf8)),
            keyHandle: registration.credentialID)
        #expect(response.status == 0x6A80)
    }

    @Test func presenceDeniedIsConditionsNotSatisfied() async throws {
        let registration = try await register()
        let denying = U2FClient(device: CommandsFixture(store: fixture.store, presence: .deny).device)
        let before = await fixture.store.all().credentials.count
        #expect(try await denying.register(challenge: SecureRandom.bytes(32)).status == 0x6985)
        #expect(await fixture.store.all().credentials.count == before, "nothing made")
        let response = try await denying.authenticate(
            0x03, challenge: SecureRandom.bytes(32), keyHandle: registration.keyHandle)
        #expect(response.status == 0x6985)
    }

    @Test func aSlowUserIsPolledAndAskedOnce() async throws {
        let asked = Atomic(0)
        let presence = UserPresence.ask { _ in
            asked.add(1, ordering: .relaxed)
            try? await Task.sleep(for: .milliseconds(300))
            return true
        }
        let polling = U2FClient(device: CommandsFixture(presence: presence).device)
        let challenge = SecureRandom.bytes(32)
        var statuses: [UInt16] = []
        for _ in 0..<100 {
            let status = try await polling.register(challenge: challenge).status
            statuses.append(status)
            if status != 0x6985 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(statuses.first == 0x6985 && statuses.last == 0x9000)
        #expect(asked.load(ordering: .relaxed) == 1)
    }

    @Test func aCancelledWaitIsConditionsNotSatisfied() async throws {
        let absent = UserPresence.ask(timeout: .seconds(3600)) { _ in
            try? await Task.sleep(for: .seconds(3600))
            return false
        }
        let waiting = U2FClient(device: CommandsFixture(presence: absent).device)
        let response = try await waiting.send(
            U2FClient.apdu(ins: 0x01, data: SecureRandom.bytes(64)),
            transaction: CTAPTransaction(channel: 1, isCancelled: { true }))
        #expect(response.status == 0x6985)
    }

    @Test func getAssertionSignsWithAU2FCredentialForTheRPIDOfItsApplication() async throws {
        let registration = try await register()
        for rpID in [U2FClient.rpID, "https://example.org/app-id.json"] {
            let application = SHA256Digest.hash(Array(rpID.utf8))
            var credential = registration
            if application != U2FClient.application {
                credential = try await register(application: application)
            }
            let challenge = SecureRandom.bytes(32)
            let clientData = CommandsFixture.clientData(.get, challenge: challenge)
            let request: CBOR = [
                1: .text(rpID), 2: .bytes(clientData.hash),
                3: [
                    ["id": .bytes([9, 9]), "type": "public-key"],
                    ["id": .bytes(credential.keyHandle), "type": "public-key"],
                ],
            ]
            let (status, response) = try await fixture.send(.getAssertion, request)
            #expect(status == .ok)
            let body = try #require(response)
            #expect(body[1]?["id"] == .bytes(credential.keyHandle) && body[4] == nil)
            let authenticatorData = try #require(body[2]?.bytesValue)
            #expect(Array(authenticatorData.prefix(32)) == application)
            let signature = try #require(body[3]?.bytesValue)
            #expect(try credential.coseKey.isValidSignature(signature, for: authenticatorData + clientData.hash))
        }
    }

    @Test func getAssertionForAnotherRPIDFindsNoU2FCredential() async throws {
        let registration = try await register()
        let request: CBOR = [
            1: "other.example", 2: .bytes(SecureRandom.bytes(32)),
            3: [["id": .bytes(registration.keyHandle), "type": "public-key"]],
        ]
        #expect(try await fixture.send(.getAssertion, request).status == .noCredentials)
        // Not even under the RP ID it is kept as.
        let kept: CBOR = [
            1: .text("u2f:" + Hex.encode(U2FClient.application)), 2: .bytes(SecureRandom.bytes(32)),
            3: [["id": .bytes(registration.keyHandle), "type": "public-key"]],
        ]
        #expect(try await fixture.send(.getAssertion, kept).status == .noCredentials)
    }

    @Test func makeCredentialExcludesAU2FCredentialOfTheSameApplication() async throws {
        let registration = try await register()
        var request = CommandsFixture.makeCredential(clientDataHash: SecureRandom.bytes(32), residentKey: false)
        request[2] = ["id": .text(U2FClient.rpID)]
        request[5] = [["id": .bytes(registration.keyHandle), "type": "public-key"]]
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .credentialExcluded)
    }

    @Test func getInfoListsU2FV2First() async throws {
        let (status, info) = try await fixture.send(.getInfo)
        #expect(status == .ok)
        #expect(info?[1]?.arrayValue?.first == "U2F_V2")
        #expect(info?[1]?.arrayValue?.contains("FIDO_2_0") == true)
    }

    @Test func anAuthenticatorWithoutES256SpeaksNoU2F() async throws {
        var profile = AuthenticatorProfile.securityKey
        profile.algorithms = [.eddsa]
        let device = CTAPDevice(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: profile))
        #expect(!device.speaksU2F)
        let info = try CBOR(decoding: await device.handle([0x04], context: CTAPTransaction(channel: 1)).dropFirst())
        #expect(info[1]?.arrayValue?.contains("U2F_V2") == false)
        let response = try await U2FClient(device: device).send(U2FClient.apdu(ins: 0x03))
        #expect(response.status == 0x6D00)
    }
}
