public import WebAuthn

/// An `authn_response`: what `PublicKeyCredential.toJSON()` gave for a create or a get ceremony
/// (auth0-passkey-api.md §3.2, §5.3).
///
/// Which ceremony it answers is the `auth_session`'s to say, not the body's (Android clients
/// send fields of both), so decoding reads it as both shapes and keeps why each one failed.
/// Decoding checks the shape only: a `type` other than `public-key` (WebAuthn L3 §5.1) decodes,
/// and the relying party's verification refuses it (§7.1, §7.2), whichever endpoint took it.
public struct PasskeyResponse: Sendable, Hashable, Codable {
    /// The value read as a registration response, if it is one.
    public let registration: RegistrationResponseJSON?
    /// The value read as an authentication response, if it is one.
    public let authentication: AuthenticationResponseJSON?
    /// Why it is not a registration response.
    let registrationProblem: String?
    /// Why it is not an authentication response.
    let authenticationProblem: String?

    /// Wraps a registration response.
    public init(_ registration: RegistrationResponseJSON) {
        self.registration = registration
        self.authentication = nil
        self.registrationProblem = nil
        self.authenticationProblem = "not an authentication response"
    }

    /// Wraps an authentication response.
    public init(_ authentication: AuthenticationResponseJSON) {
        self.registration = nil
        self.authentication = authentication
        self.registrationProblem = "not a registration response"
        self.authenticationProblem = nil
    }

    public init(from decoder: any Decoder) throws {
        do {
            registration = try RegistrationResponseJSON(from: decoder)
            registrationProblem = nil
        } catch {
            registration = nil
            registrationProblem = Self.describe(error)
        }
        do {
            authentication = try AuthenticationResponseJSON(from: decoder)
            authenticationProblem = nil
        } catch {
            authentication = nil
            authenticationProblem = Self.describe(error)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let registration {
            try registration.encode(to: encoder)
        } else {
            try authentication.encode(to: encoder)
        }
    }

    /// The registration response, or `invalid_request` saying what is wrong with it.
    func registrationResponse() throws(TenantError) -> RegistrationResponseJSON {
        guard let registration else {
            throw .invalidRequest(registrationProblem ?? "authn_response: not a registration response")
        }
        return registration
    }

    /// The authentication response, or `invalid_request` saying what is wrong with it.
    func authenticationResponse() throws(TenantError) -> AuthenticationResponseJSON {
        guard let authentication else {
            throw .invalidRequest(authenticationProblem ?? "authn_response: not an authentication response")
        }
        return authentication
    }

    /// `authn_response.response.signature: missing`, for a decoding error.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "authn_response: \(error)" }
        let (path, what): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "missing")
            case .valueNotFound(_, let context): (context.codingPath, "null")
            case .typeMismatch(_, let context), .dataCorrupted(let context):
                (context.codingPath, context.debugDescription)
            @unknown default: ([], "\(error)")
            }
        var names = ""
        for key in path {
            names += key.intValue.map { "[\($0)]" } ?? (names.isEmpty ? key.stringValue : ".\(key.stringValue)")
        }
        return "\(names.isEmpty ? "authn_response" : names): \(what)"
    }
}
