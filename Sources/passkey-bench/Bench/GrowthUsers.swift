import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import WebAuthn

/// The users of a tenant growth run (``TenantGrowth``), each with one ES256 passkey whose key the
/// bench holds: user `i`'s credential ID, user handle and private key are SHA-256 of a random run
/// secret, a purpose and `i`, so a million users cost no memory until one logs in, and then the
/// key goes into a software authenticator's store (``device(_:)``), as `passkey import --pkcs8`
/// takes one in (WebAuthn L3 §11.4's Add Credential).
struct GrowthUsers: Sendable {
    private let secret: [UInt8]
    /// The tenant's RP ID.
    let rpID: String

    /// New users, of a new run secret, for a tenant of `rpID`.
    init(rpID: String) {
        self.rpID = rpID
        secret = SecureRandom.bytes(32)
    }

    /// User `index` as the tenant imports it: email `user<index>@growth.example`, a synced passkey.
    func imported(_ index: Int) throws -> ImportedUser {
        ImportedUser(
            profile: UserProfile(email: Self.email(index)), userHandle: derived("user-handle", index, count: 16),
            credentialID: derived("credential-id", index, count: 16), publicKey: try key(index).publicKey.bytes)
    }

    /// A device whose store holds user `index`'s passkey, and nothing else, so its discoverable
    /// `get` chooses among one (CTAP 2.1 §6.2.2 step 7) whatever the tenant's size.
    func device(_ index: Int) async throws -> VirtualDevice {
        let store = InMemoryCredentialStore()
        _ = try await store.importCredential(
            privateKey: try key(index),
            as: CredentialTemplate(
                id: derived("credential-id", index, count: 16), rpID: rpID,
                userHandle: derived("user-handle", index, count: 16), userName: Self.email(index),
                userDisplayName: Self.email(index), profile: AuthenticatorProfile.platform.name, backupEligible: true,
                backupState: true, discoverable: true))
        return VirtualDevice(store: store)
    }

    static func email(_ index: Int) -> String { "user\(index)@growth.example" }

    /// User `index`'s P-256 key: the first derived scalar in [1, n) (one in about 2³² is not).
    private func key(_ index: Int) throws -> SigningKey {
        for attempt in 0..<8 {
            if let key = try? SigningKey(
                rawRepresentation: derived("key-\(attempt)", index, count: 32), algorithm: .es256)
            {
                return key
            }
        }
        throw BenchError("no P-256 key derives for user \(index)")
    }

    private func derived(_ purpose: String, _ index: Int, count: Int) -> [UInt8] {
        Array(SHA256Digest.hash(secret + Array(purpose.utf8) + [0] + Array(String(index).utf8)).prefix(count))
    }
}
