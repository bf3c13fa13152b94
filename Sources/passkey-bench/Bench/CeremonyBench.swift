import BlockingIO
import Foundation
import PasskeyAuthenticator
import Synchronization
import WebAuthn

/// The ceremony figures of `passkey-bench`, each paired with the baseline it is judged against
/// (issues 3 and 13): raw OpenSSL ES256 signatures (one `EVP_DigestSign` on a copy of a context
/// prepared for the key, the fastest raw use) for assertions, raw durable writes off the pool for
/// what must reach the disk (a new file for `create`, a replacement for a counter), raw OpenSSL
/// verifications for the relying party; soft-webauthn beside the in-memory ceremonies with
/// `--compare-peer`; and `create` in a large store against a store of 10.
struct CeremonyBench {
    let seconds: Double
    let rounds: Int
    let scratch: String
    /// Whether a figure, by name, is measured (`passkey-bench --only`).
    var wants: (String) -> Bool = { _ in true }
    /// The peer to measure beside the in-memory ceremonies (`--compare-peer`), if any.
    var peer: PeerBench?
    /// The size of the large store `create` is measured in, against a store of 10 (0 skips it).
    var flatStoreSize = 100_000

    private let origin = try! WebOrigin("https://bench.example")  // A constant, valid origin.

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let key = try SigningKey.generate(.es256)
        let message = SecureRandom.bytes(37 + 32)
        let signature = try key.signature(for: message)
        let verifier = try PreparedPublicKey(key.publicKey)
        let durable = try RawDurableDirectory(path: scratch + "/durable")
        let payload = [UInt8](repeating: 0x5A, count: 900)

        let rawSign = { _ = try key.signature(for: message) }
        let rawVerify = {
            guard try verifier.isValidSignature(signature, for: message) else { throw BenchFailure.invalid }
        }
        // Durable writes run off the concurrency pool, as the file store's do (BlockingExecutor).
        let io = BlockingExecutor(label: "passkey-bench: raw durable writes")
        let rawReplace = { try await io.run { try durable.replace("file.json", with: payload) } }
        let newFiles = try RawDurableDirectory(path: scratch + "/durable-new")
        let written = Counter()
        let rawNewFile = {
            let name = "\(written.next()).json"
            try await io.run { try newFiles.replace(name, with: payload) }
        }

        var figures: [BenchFigure] = []
        func pair(
            _ name: String, _ label: String, baseline: String, target: Double?, _ body: () async throws -> Void,
            against base: () async throws -> Void
        ) async throws {
            guard wants(name) else { return }
            progress(label)
            figures += try await BenchFigure.paired(
                name, label, baseline: baseline, baselineLabel: Self.labels[baseline] ?? baseline, target: target,
                rounds: rounds, seconds: seconds, body, against: base)
        }

        let memory = try await Rig(store: InMemoryCredentialStore(), profile: .platform, origin: origin)
        try await pair(
            "memory-get", "get, in-memory store (JSON in, JSON out)", baseline: "raw-es256-sign", target: 0.9,
            memory.get, against: rawSign)
        try await pair(
            "memory-create", "create, in-memory store", baseline: "raw-es256-sign", target: nil,
            memory.create, against: rawSign)
        if wants("memory-create-vs-keygen-seal") {
            figures += try await createBesideItsFloor(memory, progress: progress)
        }
        if let peer {
            try await comparePeer(peer, memory, into: &figures, progress: progress)
        }
        if wants("memory-create-batch") {
            // Issue 15: what an x5c batch attestation costs over self attestation (both `direct`).
            let selfAttesting = try await Rig(
                store: InMemoryCredentialStore(), profile: .securityKey, origin: origin, attestation: .direct)
            let batchAttesting = try await Rig(
                store: InMemoryCredentialStore(), profile: .cdp, origin: origin, attestation: .direct)
            progress("create with batch attestation (cdp) beside self attestation (security-key)")
            figures += try await BenchFigure.paired(
                "memory-create-batch", "create, in-memory store, packed x5c batch attestation (cdp)",
                baseline: "memory-create-self", baselineLabel: "create, in-memory store, packed self attestation",
                target: nil, rounds: rounds, seconds: seconds, batchAttesting.create, against: selfAttesting.create)
        }
        if flatStoreSize > 0, wants("memory-create-flat") {
            progress("filling an in-memory store with \(flatStoreSize) credentials of one RP")
            let small = try await Rig(store: InMemoryCredentialStore(), profile: .platform, origin: origin, filled: 10)
            let large = try await Rig(
                store: InMemoryCredentialStore(), profile: .platform, origin: origin, filled: flatStoreSize)
            progress("create in the \(flatStoreSize)-credential store")
            figures += try await BenchFigure.paired(
                "memory-create-flat", "create, in-memory store of \(flatStoreSize) (one RP)",
                baseline: "memory-create-10", baselineLabel: "create, in-memory store of 10 (one RP)", target: 0.9,
                rounds: rounds, seconds: seconds, large.createReplacing, against: small.createReplacing)
        }

        let platform = try await Rig(
            store: await FileCredentialStore(directory: scratch + "/platform"), profile: .platform, origin: origin)
        try await pair(
            "file-get-platform", "get, file store, platform profile", baseline: "raw-es256-sign", target: 0.8,
            platform.get, against: rawSign)
        try await pair(
            "file-create-platform", "create, file store, platform profile", baseline: "raw-durable-new-file",
            target: 0.8, platform.create, against: rawNewFile)

        let securityKey = try await Rig(
            store: await FileCredentialStore(directory: scratch + "/security-key"), profile: .securityKey,
            origin: origin)
        try await pair(
            "file-get-security-key", "get, file store, security-key (durable counter)",
            baseline: "raw-durable-replace", target: 0.5, securityKey.get, against: rawReplace)

        let verification = try await memory.verification()
        try await pair(
            "rp-verify", "relying-party verification of an assertion", baseline: "raw-es256-verify", target: 0.85,
            verification, against: rawVerify)
        if wants("rp-verify-vs-raw-prepared") {
            // Issue 46: the whole verification, as a relying party gets the assertion (JSON), beside
            // OpenSSL's fastest verification with a key prepared once (RawPreparedVerifier).
            let raw = try RawPreparedVerifier(spki: key.publicKey.spki)
            let rawPrepared = {
                guard raw.isValidSignature(signature, for: message) else { throw BenchFailure.invalid }
            }
            try await pair(
                "rp-verify-vs-raw-prepared", "relying-party verification of an assertion (JSON in)",
                baseline: "raw-es256-verify-prepared", target: 0.95, try await memory.verification(json: true),
                against: rawPrepared)
        }
        return figures
    }

    /// Our in-memory get and create beside the peer's, each pair measured alternately.
    private func comparePeer(
        _ peer: PeerBench, _ memory: Rig, into figures: inout [BenchFigure], progress: (String) -> Void
    ) async throws {
        let pairs: [(String, String, PeerBench.Operation, () async throws -> Void)] = [
            ("memory-get-vs-peer", "get, in-memory store (JSON in, JSON out)", .get, memory.get),
            ("memory-create-vs-peer", "create, in-memory store", .create, memory.create),
        ]
        for (name, label, operation, body) in pairs where wants(name) {
            progress("\(label), beside soft-webauthn")
            figures += try await BenchFigure.pairedRates(
                name, label, baseline: "soft-webauthn-\(operation.rawValue)",
                baselineLabel: "soft-webauthn 0.1.4 \(operation.rawValue) (Python)", target: 1.3, rounds: rounds,
                { try await Throughput.rate(seconds: seconds, body) },
                against: { try await peer.rate(operation, seconds: seconds) })
        }
    }

    /// Our in-memory create beside what no create can do without: one raw P-256 key generation
    /// and one AES-256-GCM seal of its private key (PKCS#8) with associated data as long as a
    /// store's, through the package's own primitives, measured alternately (issue 30).
    private func createBesideItsFloor(_ memory: Rig, progress: (String) -> Void) async throws -> [BenchFigure] {
        let sealingKey = SecretKey.random()
        let associatedData =
            Array("SoftPasskey private-key".utf8) + [0, 0, 16] + SecureRandom.bytes(16)
            + Array(origin.host.utf8)
        progress("create, in-memory store, beside a raw key generation and seal")
        return try await BenchFigure.paired(
            "memory-create-vs-keygen-seal", "create, in-memory store", baseline: "raw-es256-keygen-seal",
            baselineLabel: Self.labels["raw-es256-keygen-seal"] ?? "raw-es256-keygen-seal", target: 0.5, rounds: rounds,
            seconds: seconds,
            memory.create,
            against: {
                _ = try SigningKey.generate(.es256).sealedPKCS8(using: sealingKey, authenticating: associatedData)
            })
    }

    static let labels = [
        "raw-es256-keygen-seal": "raw P-256 key generation + AES-256-GCM seal",
        "raw-es256-sign": "raw OpenSSL ES256 sign",
        "raw-es256-verify": "raw OpenSSL ES256 verify",
        "raw-es256-verify-prepared": "raw OpenSSL ES256 verify, key prepared once",
        "raw-durable-replace": "raw durable file replacement",
        "raw-durable-new-file": "raw durable write of a new file",
    ]
}

enum BenchFailure: Error {
    case invalid
}

/// One authenticator and its client, with one registered credential to assert with.
private struct Rig {
    let store: any CredentialStore
    let client: WebAuthnClient
    let origin: WebOrigin
    let requestOptions: [UInt8]
    let registration: VerifiedRegistration
    let challenge: [UInt8]
    let attestation: AttestationConveyancePreference?
    private let users = Counter()

    /// A rig whose store holds `filled` credentials of its RP (one registered here, the rest
    /// stored directly, under one key: filling measures nothing).
    init(
        store: any CredentialStore, profile: AuthenticatorProfile, origin: WebOrigin, filled: Int = 1,
        attestation: AttestationConveyancePreference? = nil
    ) async throws {
        self.store = store
        self.attestation = attestation
        client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: store, profile: profile))
        self.origin = origin
        challenge = SecureRandom.bytes(32)
        var options = Self.creationOptions(user: 0, challenge: challenge, rpID: origin.host)
        options.attestation = attestation
        let response = try await client.create(options, origin: origin)
        registration = try RelyingParty(id: origin.host).verifyRegistration(response, challenge: challenge)
        let secrets = try CredentialSecrets.random(.es256)
        for user in 1..<max(filled, 1) {
            let id = SecureRandom.bytes(16)
            let key = try await store.makeKey(
                CredentialKeyRequest(credentialID: id, rpID: origin.host, algorithm: .es256, importing: secrets))
            try await store.add(
                StoredCredential(
                    id: id, rpID: origin.host, userHandle: Array("filler-\(user)".utf8), userName: "filler\(user)",
                    userDisplayName: "Filler \(user)", key: key, profile: profile.name, backupEligible: true,
                    backupState: true, discoverable: true, createdAt: Date()))
        }
        requestOptions = WebAuthnJSON.encode(
            PublicKeyCredentialRequestOptionsJSON(
                challenge: Base64URL(challenge), rpId: origin.host,
                allowCredentials: [PublicKeyCredentialDescriptorJSON(id: Base64URL(registration.credentialID))]))
    }

    static func creationOptions(user: Int, challenge: [UInt8], rpID: String) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Bench", id: rpID),
            user: PublicKeyCredentialUserEntityJSON(
                id: Base64URL(Array("user-\(user)".utf8)), name: "user\(user)", displayName: "User \(user)"),
            challenge: Base64URL(challenge), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required))
    }

    /// One `get`: options JSON in, response JSON out (`WebAuthnClient.get(json:origin:)`).
    func get() async throws {
        _ = try await client.get(json: requestOptions, origin: origin)
    }

    /// One `create` for a new user: options JSON in, response JSON out.
    func create() async throws {
        var creation = Self.creationOptions(user: users.next(), challenge: challenge, rpID: origin.host)
        creation.attestation = attestation
        let json = WebAuthnJSON.encode(creation)
        let options = try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: json)
        _ = WebAuthnJSON.encode(try await client.create(options, origin: origin))
    }

    /// One `create` for the rig's first user, replacing that user's credential (CTAP 2.1 §6.1.2
    /// step 17), so the store keeps its size.
    func createReplacing() async throws {
        let json = WebAuthnJSON.encode(Self.creationOptions(user: 0, challenge: challenge, rpID: origin.host))
        let options = try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: json)
        _ = WebAuthnJSON.encode(try await client.create(options, origin: origin))
    }

    /// A relying-party verification of one fixed assertion (its counter is 0, so it can repeat);
    /// with `json`, of its `AuthenticationResponseJSON` text, decoded each time as a relying party
    /// reads a request body.
    func verification(json: Bool = false) async throws -> () async throws -> Void {
        let options = try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: requestOptions)
        let response = try await client.get(options, origin: origin)
        let relyingParty = RelyingParty(id: origin.host)
        let record = registration.record()
        guard json else {
            return {
                _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: record)
            }
        }
        let text = WebAuthnJSON.encode(response)
        return { [challenge] in
            let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: text)
            _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: record)
        }
    }
}

/// A counter shared by the closures of one rig.
final class Counter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
