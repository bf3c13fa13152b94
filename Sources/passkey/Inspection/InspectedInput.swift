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
        let bytes: [UInt8]
        if let hex = try? Hex.decode(text), text.count >= 2 {
            bytes = hex
        } else if let decoded = try? Base64URL.decode(text) {
            bytes = decoded
        } else {
            throw CLIError.unrecognized("input is neither JSON, base64url nor hex")
        }
        if let object = try? AttestationObject(bytes: bytes) {
            self = .attestationObject(object)
        } else if let authData = try? AuthenticatorData(bytes: bytes) {
            self = .authenticatorData(authData)
        } else if bytes.first == UInt8(ascii: "{") {
            self = .clientData(try CollectedClientData(bytes: bytes))
        } else {
            // Report why it is not the likeliest reading: an attestation object for CBOR maps.
            if bytes.first.map({ $0 & 0xE0 == 0xA0 }) == true {
                _ = try AttestationObject(bytes: bytes)
            }
            _ = try AuthenticatorData(bytes: bytes)
            throw CLIError.unrecognized("input is no WebAuthn structure")
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
