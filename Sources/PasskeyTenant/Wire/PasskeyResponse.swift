import Foundation
import Synchronization
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
    public var registration: RegistrationResponseJSON? { try? registrationResponse() }
    /// The value read as an authentication response, if it is one.
    public var authentication: AuthenticationResponseJSON? { try? authenticationResponse() }

    private let readRegistration: RegistrationResponseJSON?
    private let readAuthentication: AuthenticationResponseJSON?
    /// Why it is not a registration response.
    private let registrationProblem: String?
    /// Why it is not an authentication response.
    private let authenticationProblem: String?
    /// The member's text when the JSON scanner read one shape and left the other to `JSONDecoder`,
    /// which decodes it only if it is asked for, once: a login's token request is read without
    /// decoding its response as a registration it is not (issue 46).
    private let text: Deferred?

    /// Wraps a registration response.
    public init(_ registration: RegistrationResponseJSON) {
        readRegistration = registration
        readAuthentication = nil
        registrationProblem = nil
        authenticationProblem = "not an authentication response"
        text = nil
    }

    /// Wraps an authentication response.
    public init(_ authentication: AuthenticationResponseJSON) {
        readRegistration = nil
        readAuthentication = authentication
        registrationProblem = "not a registration response"
        authenticationProblem = nil
        text = nil
    }

    public init(from decoder: any Decoder) throws {
        do {
            readRegistration = try RegistrationResponseJSON(from: decoder)
            registrationProblem = nil
        } catch {
            readRegistration = nil
            registrationProblem = Self.describe(error)
        }
        do {
            readAuthentication = try AuthenticationResponseJSON(from: decoder)
            authenticationProblem = nil
        } catch {
            readAuthentication = nil
            authenticationProblem = Self.describe(error)
        }
        text = nil
    }

    public func encode(to encoder: any Encoder) throws {
        if let registration = readRegistration ?? registration {
            try registration.encode(to: encoder)
        } else {
            try authentication.encode(to: encoder)
        }
    }

    /// The registration response, or `invalid_request` saying what is wrong with it.
    func registrationResponse() throws(TenantError) -> RegistrationResponseJSON {
        if let readRegistration { return readRegistration }
        if let text { return try text.registration.get() }
        throw .invalidRequest(registrationProblem ?? "authn_response: not a registration response")
    }

    /// The authentication response, or `invalid_request` saying what is wrong with it.
    func authenticationResponse() throws(TenantError) -> AuthenticationResponseJSON {
        if let readAuthentication { return readAuthentication }
        if let text { return try text.authentication.get() }
        throw .invalidRequest(authenticationProblem ?? "authn_response: not an authentication response")
    }

    /// Equal when both read each shape to the same response or refuse it with the same words,
    /// however they were read.
    public static func == (a: PasskeyResponse, b: PasskeyResponse) -> Bool {
        a.readings == b.readings
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(readings.registration)
        hasher.combine(readings.authentication)
    }

    private var readings: Readings {
        Readings(
            registration: Result { () throws(TenantError) in try registrationResponse() },
            authentication: Result { () throws(TenantError) in try authenticationResponse() })
    }

    private struct Readings: Equatable {
        let registration: Result<RegistrationResponseJSON, TenantError>
        let authentication: Result<AuthenticationResponseJSON, TenantError>
    }

    /// The text of a member the scanner read, and what `JSONDecoder` makes of it as each shape,
    /// decoded the first time it is asked for and kept: a value of this type is read once and
    /// asked many times (by the service, by `==`, by a log line).
    private final class Deferred: Sendable {
        private let text: [UInt8]
        private let registrationReading = Mutex<Result<RegistrationResponseJSON, TenantError>?>(nil)
        private let authenticationReading = Mutex<Result<AuthenticationResponseJSON, TenantError>?>(nil)

        init(_ text: [UInt8]) {
            self.text = text
        }

        var registration: Result<RegistrationResponseJSON, TenantError> { reading(registrationReading) }
        var authentication: Result<AuthenticationResponseJSON, TenantError> { reading(authenticationReading) }

        private func reading<Shape: Decodable & Sendable>(_ kept: borrowing Mutex<Result<Shape, TenantError>?>)
            -> Result<Shape, TenantError>
        {
            if let known = kept.withLock({ $0 }) { return known }
            // Decoded outside the lock: two first readers decode twice, and agree.
            let reading = Result { () throws(TenantError) in try PasskeyResponse.decodeAsMember(Shape.self, text) }
            kept.withLock { $0 = reading }
            return reading
        }
    }

    /// `text` decoded by `JSONDecoder` as the `authn_response` member it was, so that a problem
    /// names its path from there, as when the whole request was decoded so.
    private static func decodeAsMember<Shape: Decodable>(_ shape: Shape.Type, _ text: [UInt8])
        throws(TenantError) -> Shape
    {
        do {
            return try JSONDecoder().decode(
                Member<Shape>.self, from: Data(Array(#"{"authn_response":"#.utf8) + text + [UInt8(ascii: "}")])
            ).value
        } catch {
            throw .invalidRequest(describe(error))
        }
    }

    /// `{"authn_response": value}`.
    private struct Member<Value: Decodable>: Decodable {
        let value: Value

        enum CodingKeys: String, CodingKey {
            case value = "authn_response"
        }
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

extension PasskeyResponse: JSONReadable, JSONWritable {
    /// The member's text read as the shapes the JSON scanner takes; the other is `JSONDecoder`'s,
    /// when asked for (``registrationResponse()``, ``authenticationResponse()``). A text the
    /// scanner reads as neither is `JSONDecoder`'s at once, for the request's own error.
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        let text = Array(try scanner.rawValue())
        func read<Shape: JSONReadable>(_ shape: Shape.Type) -> Shape? {
            var member = JSONScanner(text)
            guard let value = try? Shape(scanning: &member), (try? member.end()) != nil else { return nil }
            return value
        }
        readRegistration = read(RegistrationResponseJSON.self)
        readAuthentication = read(AuthenticationResponseJSON.self)
        guard readRegistration != nil || readAuthentication != nil else { throw JSONScanner.Unreadable() }
        registrationProblem = nil
        authenticationProblem = nil
        self.text = Deferred(text)
    }

    package var writesDirectly: Bool {
        readRegistration?.writesDirectly ?? readAuthentication?.writesDirectly ?? registration?.writesDirectly
            ?? authentication?.writesDirectly ?? true
    }

    package func write(to writer: inout JSONWriter) {
        if let registration = readRegistration ?? registration {
            registration.write(to: &writer)
        } else if let authentication {
            authentication.write(to: &writer)
        } else {
            writer.raw("null")
        }
    }
}
