// The ceremony options read themselves with ``JSONScanner`` (``JSONReadable``), to the value their
// `Decodable` conformance gives: required members present, optional ones absent or `null`,
// unknown members ignored, base64url as ``Base64URL/init(string:)`` reads it. Anything else (a
// missing member, a wrong type, an extension input other than credProps and prf, whose value is
// a ``JSONValue``) gives up, and `JSONDecoder` answers.

/// A WebAuthn JSON value that reads itself from JSON text with ``JSONScanner``, to the value its
/// `Decodable` conformance gives, or gives up; ``WebAuthnJSON/decode(_:from:)`` tries this first.
package protocol JSONReadable: Decodable {
    /// Reads the value at the scanner's position.
    init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable)
}

extension JSONScanner {
    /// A base64url string, as ``Base64URL``'s `Decodable` conformance reads it.
    package mutating func base64URL() throws(Unreadable) -> Base64URL {
        let text = try string()
        guard let bytes = try? Base64URL.decode(text) else { throw Unreadable() }
        return Base64URL(bytes)
    }

    /// A value of a readable type.
    package mutating func read<Value: JSONReadable>(_: Value.Type) throws(Unreadable) -> Value {
        try Value(scanning: &self)
    }

    /// An array of a readable type's values.
    mutating func array<Value: JSONReadable>(of _: Value.Type) throws(Unreadable) -> [Value] {
        var values: [Value] = []
        try array { (scanner: inout JSONScanner) throws(Unreadable) in values.append(try Value(scanning: &scanner)) }
        return values
    }

    /// An array of an open string enumeration's values.
    mutating func array<Value: OpenStringEnumeration>(of _: Value.Type) throws(Unreadable) -> [Value] {
        var values: [Value] = []
        try array { (scanner: inout JSONScanner) throws(Unreadable) in
            values.append(Value(rawValue: try scanner.string()))
        }
        return values
    }

    /// An array of strings.
    mutating func strings() throws(Unreadable) -> [String] {
        var values: [String] = []
        try array { (scanner: inout JSONScanner) throws(Unreadable) in values.append(try scanner.string()) }
        return values
    }

    /// A required member's value, or give up.
    package static func required<Value>(_ value: Value?) throws(Unreadable) -> Value {
        guard let value else { throw Unreadable() }
        return value
    }
}

extension PublicKeyCredentialRequestOptionsJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var challenge: Base64URL?
        var options = PublicKeyCredentialRequestOptionsJSON(challenge: Base64URL([]))
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            switch name {
            case "challenge": challenge = try scanner.base64URL()
            case "timeout": options.timeout = try scanner.null() ? nil : try scanner.integer(UInt32.self)
            case "rpId": options.rpId = try scanner.null() ? nil : try scanner.string()
            case "allowCredentials":
                options.allowCredentials =
                    try scanner.null() ? nil : try scanner.array(of: PublicKeyCredentialDescriptorJSON.self)
            case "userVerification":
                options.userVerification = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            case "hints": options.hints = try scanner.null() ? nil : try scanner.array(of: PublicKeyCredentialHint.self)
            case "extensions":
                options.extensions =
                    try scanner.null() ? nil : try scanner.read(AuthenticationExtensionsClientInputsJSON.self)
            default: try scanner.skipValue()
            }
        }
        options.challenge = try JSONScanner.required(challenge)
        self = options
    }
}

extension PublicKeyCredentialCreationOptionsJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var rp: PublicKeyCredentialRpEntity?
        var user: PublicKeyCredentialUserEntityJSON?
        var challenge: Base64URL?
        var parameters: [PublicKeyCredentialParameters]?
        var timeout: UInt32?
        var excludeCredentials: [PublicKeyCredentialDescriptorJSON]?
        var authenticatorSelection: AuthenticatorSelectionCriteria?
        var hints: [PublicKeyCredentialHint]?
        var attestation: AttestationConveyancePreference?
        var attestationFormats: [String]?
        var extensions: AuthenticationExtensionsClientInputsJSON?
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            switch name {
            case "rp": rp = try PublicKeyCredentialRpEntity(scanning: &scanner)
            case "user": user = try PublicKeyCredentialUserEntityJSON(scanning: &scanner)
            case "challenge": challenge = try scanner.base64URL()
            case "pubKeyCredParams":
                parameters = try scanner.array(of: PublicKeyCredentialParameters.self)
            case "timeout": timeout = try scanner.null() ? nil : try scanner.integer(UInt32.self)
            case "excludeCredentials":
                excludeCredentials =
                    try scanner.null() ? nil : try scanner.array(of: PublicKeyCredentialDescriptorJSON.self)
            case "authenticatorSelection":
                authenticatorSelection =
                    try scanner.null() ? nil : try scanner.read(AuthenticatorSelectionCriteria.self)
            case "hints": hints = try scanner.null() ? nil : try scanner.array(of: PublicKeyCredentialHint.self)
            case "attestation": attestation = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            case "attestationFormats": attestationFormats = try scanner.null() ? nil : try scanner.strings()
            case "extensions":
                extensions = try scanner.null() ? nil : try scanner.read(AuthenticationExtensionsClientInputsJSON.self)
            default: try scanner.skipValue()
            }
        }
        self.init(
            rp: try JSONScanner.required(rp), user: try JSONScanner.required(user),
            challenge: try JSONScanner.required(challenge), pubKeyCredParams: try JSONScanner.required(parameters),
            timeout: timeout, excludeCredentials: excludeCredentials, authenticatorSelection: authenticatorSelection,
            hints: hints, attestation: attestation, attestationFormats: attestationFormats, extensions: extensions)
    }
}

extension PublicKeyCredentialRpEntity: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var name: String?
        var id: String?
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "name": name = try scanner.string()
            case "id": id = try scanner.null() ? nil : try scanner.string()
            default: try scanner.skipValue()
            }
        }
        self.init(name: try JSONScanner.required(name), id: id)
    }
}

extension PublicKeyCredentialUserEntityJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var id: Base64URL?
        var name: String?
        var displayName: String?
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "id": id = try scanner.base64URL()
            case "name": name = try scanner.string()
            case "displayName": displayName = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        self.init(
            id: try JSONScanner.required(id), name: try JSONScanner.required(name),
            displayName: try JSONScanner.required(displayName))
    }
}

extension PublicKeyCredentialParameters: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var type: PublicKeyCredentialType?
        var alg: Int?
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "type": type = .init(rawValue: try scanner.string())
            case "alg": alg = try scanner.integer(Int.self)
            default: try scanner.skipValue()
            }
        }
        self.init(type: try JSONScanner.required(type), alg: try JSONScanner.required(alg))
    }
}

extension PublicKeyCredentialDescriptorJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var type: PublicKeyCredentialType?
        var id: Base64URL?
        var transports: [AuthenticatorTransport]?
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "type": type = .init(rawValue: try scanner.string())
            case "id": id = try scanner.base64URL()
            case "transports":
                transports = try scanner.null() ? nil : try scanner.array(of: AuthenticatorTransport.self)
            default: try scanner.skipValue()
            }
        }
        self.init(type: try JSONScanner.required(type), id: try JSONScanner.required(id), transports: transports)
    }
}

extension AuthenticatorSelectionCriteria: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var criteria = AuthenticatorSelectionCriteria()
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "authenticatorAttachment":
                criteria.authenticatorAttachment = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            case "residentKey": criteria.residentKey = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            case "requireResidentKey": criteria.requireResidentKey = try scanner.null() ? nil : try scanner.bool()
            case "userVerification":
                criteria.userVerification = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            default: try scanner.skipValue()
            }
        }
        self = criteria
    }
}

extension AuthenticationExtensionsClientInputsJSON: JSONReadable {
    /// Gives up on any member but credProps and prf: the others are kept as ``JSONValue``s.
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var inputs = AuthenticationExtensionsClientInputsJSON()
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "credProps": inputs.credProps = try scanner.null() ? nil : try scanner.bool()
            case "prf":
                inputs.prf = try scanner.null() ? nil : try scanner.read(AuthenticationExtensionsPRFInputsJSON.self)
            default: throw JSONScanner.Unreadable()
            }
        }
        self = inputs
    }
}

extension AuthenticationExtensionsPRFInputsJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var inputs = AuthenticationExtensionsPRFInputsJSON()
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "eval":
                inputs.eval = try scanner.null() ? nil : try scanner.read(AuthenticationExtensionsPRFValuesJSON.self)
            case "evalByCredential":
                guard try !scanner.null() else {
                    inputs.evalByCredential = nil
                    return
                }
                var byCredential: [String: AuthenticationExtensionsPRFValuesJSON] = [:]
                try scanner.object { scanner, id throws(JSONScanner.Unreadable) in
                    byCredential[id] = try scanner.read(AuthenticationExtensionsPRFValuesJSON.self)
                }
                inputs.evalByCredential = byCredential
            default: try scanner.skipValue()
            }
        }
        self = inputs
    }
}

extension AuthenticationExtensionsPRFValuesJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var first: Base64URL?
        var second: Base64URL?
        try scanner.object { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case "first": first = try scanner.base64URL()
            case "second": second = try scanner.null() ? nil : try scanner.base64URL()
            default: try scanner.skipValue()
            }
        }
        self.init(first: try JSONScanner.required(first), second: second)
    }
}
