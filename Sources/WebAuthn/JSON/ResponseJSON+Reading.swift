// An assertion response reads itself with ``JSONScanner`` (``JSONReadable``), to the value its
// `Decodable` conformance gives, so that a relying party verifying an `AuthenticationResponseJSON`
// from a request body does not spend more on `JSONDecoder` than on the signature (issue 30's
// profile: two thirds of a verification from JSON). Members as the `Decodable` conformance reads
// them: required ones present, `userHandle` and `authenticatorAttachment` absent or `null`,
// unknown members ignored; anything else (client extension results other than `{}` or `null`, a
// wrong type, a repeated member) gives up, and `JSONDecoder` answers.

extension AuthenticatorAssertionResponseJSON: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var clientDataJSON: Base64URL?
        var authenticatorData: Base64URL?
        var signature: Base64URL?
        var userHandle: Base64URL?
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            switch name {
            case "clientDataJSON": clientDataJSON = try scanner.base64URL()
            case "authenticatorData": authenticatorData = try scanner.base64URL()
            case "signature": signature = try scanner.base64URL()
            case "userHandle": userHandle = try scanner.null() ? nil : try scanner.base64URL()
            default: try scanner.skipValue()
            }
        }
        self.init(
            clientDataJSON: try JSONScanner.required(clientDataJSON),
            authenticatorData: try JSONScanner.required(authenticatorData),
            signature: try JSONScanner.required(signature), userHandle: userHandle)
    }
}

extension PublicKeyCredentialJSON: JSONReadable where Response: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var id: String?
        var rawId: Base64URL?
        var response: Response?
        var attachment: AuthenticatorAttachment?
        var type: PublicKeyCredentialType?
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            switch name {
            case "id": id = try scanner.string()
            case "rawId": rawId = try scanner.base64URL()
            case "response": response = try scanner.read(Response.self)
            case "authenticatorAttachment":
                attachment = try scanner.null() ? nil : .init(rawValue: try scanner.string())
            case "clientExtensionResults":
                // Only the empty outputs (or none) read here; any member is `JSONDecoder`'s.
                if try !scanner.null() {
                    try scanner.object { _, _ throws(JSONScanner.Unreadable) in throw JSONScanner.Unreadable() }
                }
            case "type": type = .init(rawValue: try scanner.string())
            default: try scanner.skipValue()
            }
        }
        self.init(
            id: try JSONScanner.required(id), rawId: try JSONScanner.required(rawId),
            response: try JSONScanner.required(response), authenticatorAttachment: attachment,
            type: try JSONScanner.required(type))
    }
}
