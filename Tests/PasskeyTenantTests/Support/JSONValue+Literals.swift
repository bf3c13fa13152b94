import WebAuthn

/// JSON written as literals in tests: `["connection": "email", "authParams": ["state": "xyz"]]` as
/// a `[String: JSONValue]`, and `json["email"] == "ada@example.com"`.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByDictionaryLiteral
{
    init(stringLiteral value: String) {
        self = .string(value)
    }

    init(booleanLiteral value: Bool) {
        self = .bool(value)
    }

    init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
