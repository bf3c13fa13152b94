public import PasskeyAuthenticator
import WebAuthn

/// Credential keys kept in a PKCS#11 token, for a `FileCredentialStore` that keeps the records:
/// `FileCredentialStore(directory:custody: PKCS11KeyCustody(token:))`.
///
/// Each credential's key pair is made on the token with `CKA_ID` = the credential ID (see
/// ``PKCS11Token``); the record's private-key blob names the token (`"pkcs11:" ‖ label`), so a
/// record of another token or of a software store is reported as such. Keys never leave the token:
/// nothing is imported or exported, and there are no hmac-secret seeds (no `prf`). Deleting a
/// record destroys its key pair.
public struct PKCS11KeyCustody: CredentialKeyCustody {
    /// The token the keys are in.
    public let token: PKCS11Token

    /// Keeps keys in `token`.
    ///
    /// - Parameter token: a logged-in token.
    public init(token: PKCS11Token) {
        self.token = token
    }

    /// The profile of an authenticator whose keys are in a token: a security key with a
    /// counter per credential, ES256 and EdDSA, self attestation, no extensions.
    public static let profile: AuthenticatorProfile = {
        var profile = AuthenticatorProfile(
            name: "pkcs11", aaguid: aaguid, attachment: .crossPlatform, transports: [.usb],
            algorithms: PKCS11Token.algorithms, alwaysDiscoverable: false, alwaysVerifiesUser: false,
            backedUp: false, countsSignatures: true, selfAttests: true)
        profile.extensions = []
        return profile
    }()

    /// `profile` as an authenticator with token keys can run it: only the token's algorithms, no
    /// extensions (they need hmac-secret seeds or keys a store makes), and random credential IDs
    /// (an ID from the public key needs the key before the token makes it).
    ///
    /// - Parameter profile: any profile.
    /// - Returns: the profile, narrowed.
    public func narrowing(_ profile: AuthenticatorProfile) -> AuthenticatorProfile {
        var narrowed = profile
        narrowed.algorithms = profile.algorithms.filter(PKCS11Token.algorithms.contains)
        narrowed.extensions = []
        narrowed.credentialIDFromPublicKey = false
        return narrowed
    }

    /// SoftPasskey's PKCS#11 authenticator model: a random version-4 UUID chosen once.
    private static let aaguid: AAGUID = {
        // A constant, well-formed UUID literal.
        try! AAGUID(uuidString: "8d3f2c6a-41b7-4e0f-9a5c-2b7e6d1f0a93")
    }()

    /// `pkcs11:` and the token's label.
    public var name: String { "pkcs11:\(token.label)" }

    private var blob: [UInt8] { Array(name.utf8) }

    public func makeKey(_ request: CredentialKeyRequest) async throws(StoreError) -> CredentialKey {
        guard request.importing == nil else {
            throw StoreError(.unsupported, "a PKCS#11 token makes its own keys; it takes none in")
        }
        guard PKCS11Token.algorithms.contains(request.algorithm) else {
            throw StoreError(.unsupported, "a token key is ES256 or EdDSA, not \(request.algorithm)")
        }
        let publicKey = try await stored { () async throws(PKCS11Error) in
            try await token.generateKeyPair(id: request.credentialID, algorithm: request.algorithm)
        }
        return CredentialKey(algorithm: request.algorithm, publicKey: publicKey, privateKeyBlob: blob)
    }

    public func sign(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError) -> [UInt8] {
        try await stored { () async throws(PKCS11Error) in
            try await token.sign(message, keyID: credential.id, algorithm: credential.algorithm)
        }
    }

    /// None: the token keeps no hmac-secret seeds.
    public func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        async throws(StoreError) -> [[UInt8]]?
    {
        nil
    }

    public func check(_ credential: StoredCredential) throws(StoreError) {
        guard credential.privateKeyBlob == blob else {
            throw StoreError(.corrupt, "the record's key is not in token \"\(token.label)\"")
        }
    }

    public func discardKey(of credential: StoredCredential) async throws(StoreError) {
        try await stored { () async throws(PKCS11Error) in try await token.deleteKeyPair(keyID: credential.id) }
    }

    /// Runs a token call, reporting its failure as the store's: a missing key as `not-found`, a
    /// mechanism the token lacks as `unsupported`, anything else as `io` naming the token's error.
    private func stored<T>(_ body: () async throws(PKCS11Error) -> T) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch  where error.code == .keyNotFound {
            throw StoreError(.notFound, "token \"\(token.label)\": \(error.reason)")
        } catch  where error.code == .unsupportedMechanism {
            throw StoreError(.unsupported, "token \"\(token.label)\": \(error.reason)")
        } catch {
            throw StoreError(.io, "token \"\(token.label)\": \(error)")
        }
    }
}
