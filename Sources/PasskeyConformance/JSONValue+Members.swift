public import WebAuthn

/// Reading and editing JSON (server answers, endpoint maps, tests) through WebAuthn's `JSONValue`, never `[String: Any]`
/// (STYLE §3): `value["credential"]?["id"]?.stringValue`.
extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Parameter bytes: the text, UTF-8.
    /// - Throws: `WebAuthnError` when it is not JSON.
    public init(json bytes: some Collection<UInt8>) throws {
        self = try WebAuthnJSON.decode(JSONValue.self, from: Array(bytes))
    }

    /// The JSON text of the value.
    public var json: [UInt8] { WebAuthnJSON.encode(self) }

    /// A member, when this is an object that has it; setting one on an object adds or replaces it
    /// (`nil` removes it), on anything else does nothing.
    public subscript(member: String) -> JSONValue? {
        get { objectValue?[member] }
        set {
            guard case .object(var members) = self else { return }
            members[member] = newValue
            self = .object(members)
        }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { items } else { nil }
    }

    /// The number, when this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }
}
