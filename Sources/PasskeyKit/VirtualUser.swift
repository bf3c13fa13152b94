public import Auth0Passkeys
import FoundationEssentials
import PasskeyAuthenticator
import WebAuthn

/// A user of an Auth0 tenant who signs up, logs in and enrolls passkeys as an iPhone app's user
/// does, with a ``VirtualDevice`` for the phone: Auth0's native passkey flows (the challenge, the
/// device's passkey, the webauthn grant) and the session a `CredentialsManager` keeps.
///
/// What a Swift test suite, the `passkey` CLI, its demo and its benches all call:
///
/// ```swift
/// let tenant = try Tenant(clientID: clientID, baseURL: "http://127.0.0.1:41234")
/// let user = VirtualUser(tenant: tenant, device: VirtualDevice(store: InMemoryCredentialStore()))
/// try await user.signUp(email: "ada@example.com")
/// let login = try await user.logIn()
/// let events = try await user.callAPI(.get, "http://127.0.0.1:41234/api/events",
///                                     audience: "https://localhost/api/", scope: "read:events")
/// try await user.logOut(revoke: true)
/// ```
///
/// A value: copies share the device's store and the session's storage. The session lives in
/// memory unless a storage is given (`FileCredentialsStorage` keeps it across processes).
public struct VirtualUser: Sendable {
    /// The tenant the user belongs to.
    public let tenant: Tenant
    /// The user's own device, which signup and login use unless told otherwise; `nil` for a user
    /// who only works with an existing session.
    public var device: VirtualDevice?
    /// The session: the user's tokens, renewed and exchanged as needed.
    public let credentialsManager: CredentialsManager

    /// The My Account scopes each call needs (auth0-passkey-api.md §5.1, §19).
    static let enrollScope = "create:me:authentication_methods"
    static let readMethodsScope = "read:me:authentication_methods"
    static let updateMethodsScope = "update:me:authentication_methods"
    static let deleteMethodsScope = "delete:me:authentication_methods"
    static let readFactorsScope = "read:me:factors"

    /// Creates a user of `tenant`.
    ///
    /// - Parameters:
    ///   - tenant: the tenant.
    ///   - device: the user's device, or `nil`.
    ///   - session: where the session is kept; in memory by default.
    public init(tenant: Tenant, device: VirtualDevice?, session: any CredentialsStorage = InMemoryCredentialsStorage())
    {
        self.tenant = tenant
        self.device = device
        self.credentialsManager = CredentialsManager(
            authentication: tenant.usesDPoP ? tenant.authentication.useDPoP(DPoP()) : tenant.authentication,
            storage: session, idTokenValidator: tenant.idTokenValidator,
            clientAuthentication: tenant.clientAuthentication)
    }

    /// What the user's logins and signups send their token requests with: the tenant's client,
    /// with the user's own DPoP key when ``Tenant/usesDPoP``.
    var loginAuthentication: Authentication { credentialsManager.authentication }

    /// What the user's calls with a session token go through: the tenant's client signing with
    /// the session's DPoP key, which it does only for a `DPoP` token (auth0-passkey-api.md §16.5).
    var sessionAuthentication: Authentication { tenant.authentication.useDPoP(credentialsManager.dpop) }

    /// The user of the stored session, from its ID token.
    ///
    /// - Throws: `CredentialsManagerError` with `noCredentials` when there is no session.
    public func storedUser() async throws(CredentialsManagerError) -> UserInfo {
        guard let user = await credentialsManager.user else {
            throw CredentialsManagerError(.noCredentials, "No credentials were found in the store.")
        }
        return user
    }

    /// The device for a flow: `device` when given, else the user's own.
    func device(_ device: VirtualDevice?) throws(PasskeyFlowError) -> VirtualDevice {
        guard let device = device ?? self.device else {
            throw .user(VirtualUserError(.noDevice, "the user has no device to make or use a passkey with"))
        }
        return device
    }

    /// Makes a passkey on `device` as one step of a flow: a refusal is the device's case.
    func register(_ options: PublicKeyCredentialCreationOptionsJSON, rpID: String, on device: VirtualDevice)
        async throws(PasskeyFlowError) -> RegistrationResponseJSON
    {
        do {
            return try await device.create(options, rpID: rpID)
        } catch {
            throw .device(error)
        }
    }

    /// Keeps the credentials of a new login as the only session, once their ID token passes the
    /// tenant's ``Tenant/idTokenValidator`` (the manager checks it): API credentials of a previous
    /// user must not survive a change of user. The new session is stored before the old API
    /// credentials are pruned, so a write that fails leaves the previous session usable, never
    /// none; a passphrase requirement of the storage stays.
    func startSession(_ credentials: Credentials) async throws(PasskeyFlowError) -> UserInfo {
        do {
            try await credentialsManager.store(credentials: credentials)
            for stale in try await credentialsManager.storedAPICredentials() {
                try await credentialsManager.clear(forAudience: stale.audience, scope: stale.scope)
            }
        } catch {
            throw .session(error)
        }
        guard let user = await credentialsManager.user else {
            throw .user(VirtualUserError(.badIDToken, "the tenant's ID token does not decode"))
        }
        return user
    }

    /// Runs `body`, which sends a new passkey to the tenant; when the tenant refuses it (an
    /// answer with a 4xx status), deletes the passkey from `store`, if the device has one it
    /// can read, and rethrows: the relying party does not know it, as WebAuthn L3 §5.1.10
    /// `signalUnknownCredential` would tell the authenticator. With no answer at all it is kept,
    /// since the tenant may have accepted it.
    ///
    /// - Parameter party: the case for the API `body` calls (`PasskeyFlowError.authentication`, …).
    func forgettingRefused<Value, Failure: Auth0APIError>(
        _ credentialID: [UInt8], in store: (any CredentialStore)?, as party: (Failure) -> PasskeyFlowError,
        _ body: () async throws(Failure) -> Value
    ) async throws(PasskeyFlowError) -> Value {
        do {
            return try await body()
        } catch {
            if (400..<500).contains(error.statusCode) {
                try? await store?.delete(id: credentialID)
            }
            throw party(error)
        }
    }
}
