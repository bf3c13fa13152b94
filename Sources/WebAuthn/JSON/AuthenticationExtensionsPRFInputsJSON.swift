// The members on the wire, declared once (``JSONObject``): what reading, writing and `Codable` use.
extension AuthenticationExtensionsPRFInputsJSON: JSONObject {
    package static let jsonMembers = JSONMembers<Self>(
        [
            .member("eval", \.eval), .member("evalByCredential", \.evalByCredential),
        ])

    package static var unread: Self { Self() }
}

/// The client input of the `prf` extension, in JSON form (WebAuthn L3 §10.1.4).
///
/// ```
/// dictionary AuthenticationExtensionsPRFInputsJSON {
///     AuthenticationExtensionsPRFValuesJSON eval;
///     record<DOMString, AuthenticationExtensionsPRFValuesJSON> evalByCredential;
/// };
/// ```
public struct AuthenticationExtensionsPRFInputsJSON: Sendable, Hashable, Codable {
    /// Inputs to evaluate with whichever credential is used.
    public var eval: AuthenticationExtensionsPRFValuesJSON?
    /// Inputs per credential, keyed by the base64url credential ID (authentication only).
    public var evalByCredential: [String: AuthenticationExtensionsPRFValuesJSON]?

    /// Creates a `prf` input; both members default to absent, which asks only whether the
    /// credential supports PRF.
    ///
    /// - Parameters:
    ///   - eval: inputs for any credential.
    ///   - evalByCredential: inputs per base64url credential ID.
    public init(
        eval: AuthenticationExtensionsPRFValuesJSON? = nil,
        evalByCredential: [String: AuthenticationExtensionsPRFValuesJSON]? = nil
    ) {
        self.eval = eval
        self.evalByCredential = evalByCredential
    }
}
