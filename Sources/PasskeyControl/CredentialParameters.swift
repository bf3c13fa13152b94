import FoundationEssentials
public import PasskeyAuthenticator
public import WebAuthn

/// The W3C WebDriver "Credential Parameters" of one credential (WebAuthn L3 §11.4): what Add
/// Credential takes and Get Credentials answers, bytes as base64url.
///
/// ```
/// { "credentialId": B64URL, "isResidentCredential": BOOL, "rpId": STRING,
///   "privateKey": B64URL(PKCS#8), "userHandle": B64URL?, "signCount": UINT32,
///   "backupEligibility": BOOL, "backupState": BOOL, "userName": STRING, "userDisplayName": STRING,
///   "largeBlob": B64URL? }
/// ```
///
/// Get Credentials leaves `privateKey` out: keys leave the server only through the export
/// command (``ControlService/exportCredential(session:authenticator:credentialID:)``).
public struct CredentialParameters: Sendable, Hashable, Encodable {
    /// The credential ID.
    public var credentialId: Base64URL
    /// Whether it is discoverable.
    public var isResidentCredential: Bool
    /// The RP ID.
    public var rpId: String
    /// The PKCS#8 private key; only in Add Credential and an export.
    public var privateKey: Base64URL?
    /// The user handle, if any.
    public var userHandle: Base64URL?
    /// The signature counter.
    public var signCount: UInt32
    /// The BE flag.
    public var backupEligibility: Bool
    /// The BS flag.
    public var backupState: Bool
    /// The user's name.
    public var userName: String
    /// The user's display name.
    public var userDisplayName: String
    /// The credential's large blob (WebAuthn L3 §11.4 `largeBlob`), if it has one.
    public var largeBlob: Base64URL?

    /// The parameters of a stored credential, without its private key.
    ///
    /// - Parameter stored: the credential.
    public init(_ stored: StoredCredential) {
        credentialId = Base64URL(stored.id)
        isResidentCredential = stored.discoverable
        rpId = stored.rpID
        privateKey = nil
        userHandle = stored.userHandle.isEmpty ? nil : Base64URL(stored.userHandle)
        signCount = stored.signCount
        backupEligibility = stored.backupEligible
        backupState = stored.backupState
        userName = stored.userName
        userDisplayName = stored.userDisplayName
        largeBlob = nil
    }

    /// Reads Add Credential's parameters as its remote end steps do (WebAuthn L3 §11.3), with
    /// the authenticator's defaults for the backup flags.
    ///
    /// - Parameters:
    ///   - parameters: the command's JSON object.
    ///   - configuration: the authenticator's configuration.
    /// - Throws: ``ControlError`` `invalid argument` for a missing or malformed member, a
    ///   discoverable credential without a user handle or on an authenticator without resident
    ///   keys; `unsupported operation` for a `null` signCount (every credential here counts).
    public init(parameters: [String: JSONValue], for configuration: VirtualAuthenticatorConfiguration)
        throws(ControlError)
    {
        for key in parameters.keys where !Self.keys.contains(key) {
            throw .invalidArgument("\(key) is not a key of credential parameters")
        }
        guard let credentialId = try Self.base64URL(parameters, "credentialId") else {
            throw .invalidArgument("credentialId is required")
        }
        self.credentialId = credentialId
        guard !credentialId.bytes.isEmpty else { throw .invalidArgument("credentialId is empty") }
        guard let resident = try VirtualAuthenticatorConfiguration.bool(parameters, "isResidentCredential") else {
            throw .invalidArgument("isResidentCredential is required")
        }
        isResidentCredential = resident
        guard let rpId = try VirtualAuthenticatorConfiguration.string(parameters, "rpId"), !rpId.isEmpty else {
            throw .invalidArgument("rpId is required")
        }
        self.rpId = rpId
        guard let privateKey = try Self.base64URL(parameters, "privateKey") else {
            throw .invalidArgument("privateKey is required")
        }
        self.privateKey = privateKey
        userHandle = try Self.base64URL(parameters, "userHandle")
        if resident && userHandle == nil {
            throw .invalidArgument("a resident credential needs a userHandle")
        }
        if let handle = userHandle, !(1...64).contains(handle.bytes.count) {
            throw .invalidArgument("userHandle is 1 to 64 bytes, not \(handle.bytes.count)")
        }
        if resident && !configuration.hasResidentKey {
            throw .invalidArgument("the authenticator has no resident keys (hasResidentKey is false)")
        }
        guard let signCount = try Self.signCount(parameters) else {
            throw .invalidArgument("signCount is required")
        }
        self.signCount = signCount
        backupEligibility =
            try VirtualAuthenticatorConfiguration.bool(parameters, "backupEligibility")
            ?? configuration.defaultBackupEligibility
        backupState =
            try VirtualAuthenticatorConfiguration.bool(parameters, "backupState") ?? configuration.defaultBackupState
        userName = try VirtualAuthenticatorConfiguration.string(parameters, "userName") ?? ""
        userDisplayName = try VirtualAuthenticatorConfiguration.string(parameters, "userDisplayName") ?? ""
        largeBlob = try Self.base64URL(parameters, "largeBlob")
        if largeBlob != nil, !configuration.extensions.contains("largeBlob") {
            throw .unsupported("largeBlob needs an authenticator with the largeBlob extension")
        }
    }

    /// The `signCount` member: a 32-bit unsigned integer, or `nil` when absent; `null` (no
    /// counter) is `unsupported operation`, since every credential here has one.
    static func signCount(_ parameters: [String: JSONValue]) throws(ControlError) -> UInt32? {
        switch parameters["signCount"] {
        case nil:
            return nil
        case .number(let count) where count >= 0 && count <= Double(UInt32.max) && count.rounded() == count:
            return UInt32(count)
        case .null:
            throw .unsupported("signCount null: every credential here has a signature counter")
        default:
            throw .invalidArgument("signCount must be an integer from 0 to 4294967295")
        }
    }

    private static let keys: Set<String> = [
        "credentialId", "isResidentCredential", "rpId", "privateKey", "userHandle", "signCount", "largeBlob",
        "backupEligibility", "backupState", "userName", "userDisplayName",
    ]

    private static func base64URL(_ parameters: [String: JSONValue], _ key: String) throws(ControlError)
        -> Base64URL?
    {
        guard let text = try VirtualAuthenticatorConfiguration.string(parameters, key) else { return nil }
        do {
            return Base64URL(try Base64URL.decode(text))
        } catch {
            throw .invalidArgument("\(key) is not base64url: \(error.reason)")
        }
    }
}
