// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticatorSelectionCriteria: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("authenticatorAttachment", \.authenticatorAttachment), .member("residentKey", \.residentKey),
            .member("requireResidentKey", \.requireResidentKey), .member("userVerification", \.userVerification),
        ])

    package static var unread: Self { Self() }
}

/// A relying party's requirements on the authenticator that creates a credential
/// (WebAuthn L3 §5.4.4).
///
/// ```
/// dictionary AuthenticatorSelectionCriteria {
///     DOMString authenticatorAttachment;
///     DOMString residentKey;
///     boolean requireResidentKey = false;
///     DOMString userVerification = "preferred";
/// };
/// ```
///
/// Absent members stay `nil` rather than taking the IDL defaults, so that what was received is
/// what is re-encoded; a client applies the defaults when it acts on the options.
public struct AuthenticatorSelectionCriteria: Sendable, Hashable, Codable {
    /// Restricts the ceremony to authenticators with this attachment.
    public var authenticatorAttachment: AuthenticatorAttachment?
    /// Whether the credential should be discoverable.
    public var residentKey: ResidentKeyRequirement?
    /// The WebAuthn Level 1 form of `residentKey == .required`, kept for older relying parties.
    public var requireResidentKey: Bool?
    /// Whether the user must be verified.
    public var userVerification: UserVerificationRequirement?

    /// Creates selection criteria; every member defaults to absent.
    ///
    /// - Parameters:
    ///   - authenticatorAttachment: the required attachment, if any.
    ///   - residentKey: the discoverable-credential requirement, if any.
    ///   - requireResidentKey: the Level 1 flag, if any.
    ///   - userVerification: the user-verification requirement, if any.
    public init(
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        residentKey: ResidentKeyRequirement? = nil,
        requireResidentKey: Bool? = nil,
        userVerification: UserVerificationRequirement? = nil
    ) {
        self.authenticatorAttachment = authenticatorAttachment
        self.residentKey = residentKey
        self.requireResidentKey = requireResidentKey
        self.userVerification = userVerification
    }
}
