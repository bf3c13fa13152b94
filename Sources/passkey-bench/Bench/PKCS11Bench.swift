import Foundation
import PasskeyAuthenticator
import PasskeyPKCS11
import WebAuthn

/// `passkey-bench --backend pkcs11`: ceremonies whose keys a PKCS#11 token holds, each paired
/// with the token's own work measured in the same run (issue 16): `get` against a bare
/// `C_SignInit`/`C_Sign` loop on one key handle, `create` against the token's key-pair generation
/// alone.
struct PKCS11Bench {
    let custody: PKCS11KeyCustody
    let seconds: Double
    let rounds: Int
    let scratch: String

    private let origin = try! WebOrigin("https://bench.example")  // A constant, valid origin.

    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let token = custody.token
        let store = try await FileCredentialStore(directory: scratch + "/pkcs11", custody: custody)
        // The platform profile keeps no counter: a get is the token's signature and the store's read.
        let client = WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: store, profile: custody.narrowing(.platform)))
        let challenge = SecureRandom.bytes(32)
        func creation(_ user: Int) -> PublicKeyCredentialCreationOptionsJSON {
            PublicKeyCredentialCreationOptionsJSON(
                rp: PublicKeyCredentialRpEntity(name: "Bench", id: origin.host),
                user: PublicKeyCredentialUserEntityJSON(
                    id: Base64URL(Array("user-\(user)".utf8)), name: "user\(user)", displayName: "User \(user)"),
                challenge: Base64URL(challenge), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)])
        }
        let registration = try await client.create(creation(0), origin: origin)
        let request = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(challenge), rpId: origin.host,
            allowCredentials: [PublicKeyCredentialDescriptorJSON(id: registration.rawId)])
        let raw = try RawTokenSigner(module: token.module.path, token: token.label, keyID: registration.rawId.bytes)
        let users = Counter()
        var made: [[UInt8]] = []

        progress("pkcs11: get beside a raw C_Sign loop")
        var figures = try await BenchFigure.pairedRates(
            "pkcs11-get", "get, keys in PKCS#11 token \"\(token.label)\"", baseline: "raw-c-sign",
            baselineLabel: "raw C_SignInit + C_Sign loop (ES256)", target: nil, rounds: rounds,
            { try await Throughput.rate(seconds: seconds) { _ = try await client.get(request, origin: origin) } },
            against: {
                // One hop to the signer's thread, one handle, `count` signatures back to back.
                let count = 256
                let start = ContinuousClock.now
                try await raw.sign(count)
                let elapsed = ContinuousClock.now - start
                return Double(count)
                    / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            })
        progress("pkcs11: create beside the token's key-pair generation alone")
        figures += try await BenchFigure.paired(
            "pkcs11-create", "create, keys in PKCS#11 token \"\(token.label)\"", baseline: "raw-c-generate-key-pair",
            baselineLabel: "raw C_GenerateKeyPair (P-256) and its public key", target: nil, rounds: rounds,
            seconds: seconds, { _ = try await client.create(creation(users.next()), origin: origin) },
            against: {
                let id = SecureRandom.bytes(16)
                _ = try await token.generateKeyPair(id: id, algorithm: .es256)
                made.append(id)
            })
        progress("pkcs11: removing the bench's keys from the token")
        for credential in try await store.all().credentials {
            try await store.delete(id: credential.id)
        }
        for id in made {
            try await token.deleteKeyPair(keyID: id)
        }
        return figures
    }
}
