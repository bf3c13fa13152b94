/// A coding key for a JSON member whose name is known only at run time: the extensions this
/// library does not model, which WebAuthn passes through (WebAuthn L3 §9: clients and relying
/// parties ignore extensions they do not recognise), and the key a decoding error names (the
/// Auth0 client's too).
package struct AnyCodingKey: CodingKey {
    package let stringValue: String
    package var intValue: Int? { nil }

    package init(stringValue: String) {
        self.stringValue = stringValue
    }

    package init?(intValue: Int) {
        nil
    }
}

extension Decoder {
    /// The members of the object being decoded that `Known` does not name, as JSON values.
    func otherMembers<Known: CodingKey>(besides _: Known.Type) throws -> [String: JSONValue] {
        let container = try container(keyedBy: AnyCodingKey.self)
        var members = [String: JSONValue]()
        for key in container.allKeys where Known(stringValue: key.stringValue) == nil {
            members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return members
    }
}

extension Encoder {
    /// Encodes `members` into the object being encoded, skipping names that `Known` owns so a
    /// typed member always wins over a pass-through one of the same name.
    func encodeOtherMembers<Known: CodingKey>(_ members: [String: JSONValue], besides _: Known.Type) throws {
        var container = container(keyedBy: AnyCodingKey.self)
        for (name, value) in members where Known(stringValue: name) == nil {
            try container.encode(value, forKey: AnyCodingKey(stringValue: name))
        }
    }
}
