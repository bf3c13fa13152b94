/// A coding key for a JSON member named at run time: the members of a ``JSONObject``'s table,
/// the extensions this library does not model, which WebAuthn passes through (WebAuthn L3 §9:
/// clients and relying parties ignore extensions they do not recognise), and the key a decoding
/// error names (the Auth0 client's too).
package struct AnyCodingKey: CodingKey, Sendable {
    package let stringValue: String
    package var intValue: Int? { nil }

    package init(stringValue: String) {
        self.stringValue = stringValue
    }

    package init?(intValue: Int) {
        nil
    }
}
