import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// A device over a software security key with an in-memory store, and requests built with the
/// core's CBOR encoder, as a FIDO client would send them.
struct CommandsFixture {
    static let rpID = "example.org"
    static let origin = "https://example.org"
    let store: InMemoryCredentialStore
    let device: CTAPDevice

    init(
        store: InMemoryCredentialStore = InMemoryCredentialStore(), state: (any CTAPStateStore)? = nil,
        presence: UserPresence = .automatic, userVerification: UserVerification? = nil,
        resetWindow: Duration = .seconds(10), clock: CTAPClock = ManualClock().clock
    ) {
        self.store = store
        let authenticator = SoftwareAuthenticator(store: store, profile: .securityKey)
        device = CTAPDevice(
            authenticator: authenticator, state: state, presence: presence, userVerification: userVerification,
            resetWindow: resetWindow, wipe: CTAPDevice.wiping(store), clock: clock, credentials: store)
    }

    /// Sends raw bytes; returns the status and the decoded response, if any.
    func send(_ message: [UInt8], transaction: CTAPTransaction = CTAPTransaction(channel: 1)) async throws -> (
        status: CTAPStatus, response: CBOR?
    ) {
        let answer = await device.handle(message, context: transaction)
        let status = CTAPStatus(rawValue: try #require(answer.first))
        return (status, answer.count > 1 ? try CBOR(decoding: answer.dropFirst()) : nil)
    }

    /// Sends a command with CBOR parameters.
    func send(_ command: CTAPCommand, _ parameters: CBOR? = nil) async throws -> (status: CTAPStatus, response: CBOR?) {
        try await send([command.rawValue] + (parameters?.encoded() ?? []))
    }

    /// The client data of one ceremony, and its hash.
    static func clientData(_ type: CollectedClientData.CeremonyType, challenge: [UInt8]) -> (
        json: [UInt8], hash: [UInt8]
    ) {
        let json = CollectedClientData(type: type, challenge: challenge, origin: origin).bytes
        return (json, SHA256Digest.hash(json))
    }

    /// A valid authenticatorMakeCredential parameter map, to change one thing in.
    static func makeCredential(
        clientDataHash: [UInt8], userID: [UInt8] = [1, 2, 3, 4], residentKey: Bool = true
    ) -> [CBOR: CBOR] {
        [
            1: .bytes(clientDataHash), 2: ["id": .text(rpID), "name": "Example"],
            3: ["id": .bytes(userID), "name": "alice", "displayName": "Alice"],
            4: [["alg": -7, "type": "public-key"]], 7: ["rk": .bool(residentKey)],
        ]
    }

    /// Registers a credential and verifies it with the relying party.
    func register(userID: [UInt8] = [1, 2, 3, 4], residentKey: Bool = true) async throws -> VerifiedRegistration {
        let challenge = SecureRandom.bytes(32)
        let clientData = Self.clientData(.create, challenge: challenge)
        let (status, response) = try await send(
            .makeCredential,
            .map(Self.makeCredential(clientDataHash: clientData.hash, userID: userID, residentKey: residentKey)))
        #expect(status == .ok)
        let body = try #require(response)
        let attestationObject: CBOR = [
            "fmt": try #require(body[1]), "attStmt": try #require(body[3]), "authData": try #require(body[2]),
        ]
        return try RelyingParty(id: Self.rpID).verifyRegistration(
            clientDataJSON: clientData.json, attestationObject: attestationObject.encoded(), challenge: challenge)
    }
}
