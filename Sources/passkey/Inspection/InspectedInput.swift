import Foundation
import WebAuthn

/// What `passkey inspect` was given, recognized by its shape.
enum InspectedInput {
    case registration(RegistrationResponseJSON)
    case authentication(AuthenticationResponseJSON)
    case clientData(CollectedClientData)
    case attestationObject(AttestationObject)
    case authenticatorData(AuthenticatorData)

    /// Recognizes the input: JSON responses and client data by their members, binary parts
    /// (base64url or hex) by whether they parse as an attestation object, authenticator data or
    /// client data, in that order.
    init(_ input: [UInt8]) throws {
        let text = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{") {
            try self.init(json: Array(text.utf8))
            return
        }
        // Hex text is also valid base64url text: try each reading, hex first, and keep the first
        // that is a WebAuthn structure.
        let readings = [try? Hex.decode(text), try? Base64URL.decode(text)].compactMap { $0 }.filter { !$0.isEmpty }
        guard let first = readings.first else {
            throw CLIError.unrecognized("input is neither JSON, base64url nor hex")
        }
        for bytes in readings {
            if let recognized = Self(binary: bytes) {
                self = recognized
                return
            }
        }
        // None fits: explain why the likeliest reading does not parse.
        if first.first.map({ $0 & 0xE0 == 0xA0 }) == true {
            _ = try AttestationObject(bytes: first)
        }
        if first.first == UInt8(ascii: "{") {
            _ = try CollectedClientData(bytes: first)
        }
        _ = try AuthenticatorData(bytes: first)
        throw CLIError.unrecognized("input is no WebAuthn structure")
    }

    /// Reads bytes as an attestation object, authenticator data or client data, in that order.
    private init?(binary bytes: [UInt8]) {
        if let object = try? AttestationObject(bytes: bytes) {
            self = .attestationObject(object)
        } else if let authData = try? AuthenticatorData(bytes: bytes) {
            self = .authenticatorData(authData)
        } else if let clientData = try? CollectedClientData(bytes: bytes) {
            self = .clientData(clientData)
        } else {
            return nil
        }
    }

    private init(json: [UInt8]) throws {
        let members = try WebAuthnJSON.decode([String: JSONValue].self, from: json)
        let response = members["response"]?.objectValue
        if response?["attestationObject"] != nil {
            self = .registration(try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: json))
        } else if response?["signature"] != nil {
            self = .authentication(try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: json))
        } else if members["type"] != nil, members["challenge"] != nil {
            self = .clientData(try CollectedClientData(bytes: json))
        } else {
            throw CLIError.unrecognized(
                "JSON is no RegistrationResponseJSON, AuthenticationResponseJSON or client data")
        }
    }

    func report() throws -> Report {
        var report = Report()
        switch self {
        case .registration(let response):
            report.add("registrationResponse", .report(try Report(registration: response)))
        case .authentication(let response):
            report.add("authenticationResponse", .report(try Report(authentication: response)))
        case .clientData(let clientData):
            report.add("clientData", .report(Report(clientData: clientData)))
        case .attestationObject(let object):
            report.add("attestationObject", .report(try Report(attestation: object)))
        case .authenticatorData(let authData):
            report.add("authenticatorData", .report(Report(authenticatorData: authData)))
        }
        return report
    }
}
