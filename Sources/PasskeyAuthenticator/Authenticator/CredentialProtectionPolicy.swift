/// How a credential is protected from being used without user verification (CTAP 2.1 §12.1
/// `credProtect`), chosen by the relying party when the credential is made.
public enum CredentialProtectionPolicy: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Level 1: used with or without user verification, as any credential.
    case userVerificationOptional = 1
    /// Level 2: without user verification, only when the relying party names it in an allow
    /// list; a discoverable request without UV does not find it.
    case userVerificationOptionalWithCredentialIDList = 2
    /// Level 3: only with user verification.
    case userVerificationRequired = 3

    /// The policy named as the client extension input `credentialProtectionPolicy` names it.
    ///
    /// - Parameter name: `userVerificationOptional`, `userVerificationOptionalWithCredentialIDList`
    ///   or `userVerificationRequired`.
    public init?(name: String) {
        guard let policy = Self.allCases.first(where: { $0.name == name }) else {
            return nil
        }
        self = policy
    }

    /// The client extension's name for the policy.
    public var name: String {
        switch self {
        case .userVerificationOptional: "userVerificationOptional"
        case .userVerificationOptionalWithCredentialIDList: "userVerificationOptionalWithCredentialIDList"
        case .userVerificationRequired: "userVerificationRequired"
        }
    }

    /// Whether a request may use the credential (CTAP 2.1 §6.2.2 step 7, §12.1).
    ///
    /// - Parameters:
    ///   - userVerified: whether the request verifies the user.
    ///   - allowListed: whether the request names credentials in an allow list.
    public func permits(userVerified: Bool, allowListed: Bool) -> Bool {
        switch self {
        case .userVerificationOptional: true
        case .userVerificationOptionalWithCredentialIDList: userVerified || allowListed
        case .userVerificationRequired: userVerified
        }
    }
}
