/// A WebAuthn JSON dictionary whose members are declared once, in ``jsonMembers``: its fast read
/// (``JSONReadable``), its fast write (``JSONWritable``) and its `Codable` conformance all come
/// from that table, so they cannot drift apart (issue 38).
///
/// ```swift
/// extension PublicKeyCredentialRpEntity: JSONObject {
///     package static let jsonMembers = JSONMembers<Self>(
///         [.member("name", \.name), .member("id", \.id)])
///     package static var unread: Self { Self(name: "") }
/// }
/// ```
///
/// The table lists members in declaration order, which is the order `Decodable` reads them in
/// (so the first error it reports is the synthesized conformance's); a `Value?` member is absent
/// or `null` when `nil` and written only when present, a `Value` member is required unless it
/// has a default. Reading takes the plain case only (no member twice, a required member present,
/// no member the table does not type where it keeps other members) and gives up on anything
/// else, for `JSONDecoder` to answer; writing orders members by the bytes of their names, as
/// `JSONEncoder`'s `.sortedKeys` does.
package protocol JSONObject: JSONReadable, JSONWritable {
    /// The members.
    static var jsonMembers: JSONMembers<Self> { get }

    /// The value reading starts from: each member's default, required members a placeholder
    /// that reading replaces (or gives up).
    static var unread: Self { get }
}

/// The members of a ``JSONObject``: each one's name, where it lives, and how it reads and writes.
package struct JSONMembers<Root>: Sendable {
    let members: [JSONMember<Root>]
    /// The members' names as UTF-8, in ``members``' order, for ``JSONScanner/object(_:_:)``.
    let names: [[UInt8]]
    /// The members in the byte order of their names.
    let writingOrder: [Int]
    /// One bit per required member, by index.
    let required: UInt64
    /// Where every other member goes, as a ``JSONValue``; `nil` ignores them.
    let others: (any WritableKeyPath<Root, [String: JSONValue]> & Sendable)?

    /// A table whose object ignores the members it does not name.
    ///
    /// - Parameter members: the members, in declaration order; at most 64.
    package init(_ members: [JSONMember<Root>]) {
        self.init(members, keeping: nil)
    }

    /// A table whose object keeps the members it does not name, as ``JSONValue``s.
    ///
    /// - Parameters:
    ///   - members: the members, in declaration order; at most 64.
    ///   - others: where the other members are kept.
    package init(_ members: [JSONMember<Root>], others: any WritableKeyPath<Root, [String: JSONValue]> & Sendable) {
        self.init(members, keeping: others)
    }

    private init(
        _ members: [JSONMember<Root>], keeping others: (any WritableKeyPath<Root, [String: JSONValue]> & Sendable)?
    ) {
        precondition(members.count <= 64, "a JSON object table holds at most 64 members")
        self.members = members
        names = members.map { Array($0.name.utf8) }
        writingOrder = members.indices.sorted { members[$0].name.utf8.lexicographicallyPrecedes(members[$1].name.utf8) }
        required = members.indices.reduce(0) { mask, index in members[index].isRequired ? mask | 1 << index : mask }
        self.others = others
    }

    /// Whether a member name is one of the table's.
    func names(_ name: String) -> Bool {
        members.contains { $0.name == name }
    }
}

/// One member of a ``JSONObject``.
package struct JSONMember<Root>: Sendable {
    let name: String
    let isRequired: Bool
    let read: @Sendable (inout JSONScanner, inout Root) throws(JSONScanner.Unreadable) -> Void
    /// Writes `"name":value`, or nothing for an absent optional member.
    let write: @Sendable (Root, inout JSONWriter) -> Void
    let writesDirectly: @Sendable (Root) -> Bool
    let decode: @Sendable (KeyedDecodingContainer<AnyCodingKey>, inout Root) throws -> Void
    let encode: @Sendable (Root, inout KeyedEncodingContainer<AnyCodingKey>) throws -> Void

    /// A required member, or with `default`, one that reads as `default` when absent or `null`
    /// and is always written.
    ///
    /// - Parameters:
    ///   - name: the member's name.
    ///   - keyPath: where its value lives.
    ///   - default: its value when absent; `nil` makes it required.
    package static func member<Value: JSONCodable & Sendable>(
        _ name: String, _ keyPath: any WritableKeyPath<Root, Value> & Sendable, default: Value? = nil
    ) -> Self {
        let key = AnyCodingKey(stringValue: name)
        return Self(
            name: name, isRequired: `default` == nil,
            read: { scanner, root throws(JSONScanner.Unreadable) in
                if let `default`, try scanner.null() {
                    root[keyPath: keyPath] = `default`
                } else {
                    root[keyPath: keyPath] = try Value(scanning: &scanner)
                }
            },
            write: { root, writer in
                writer.key(name)
                root[keyPath: keyPath].write(to: &writer)
            },
            writesDirectly: { root in root[keyPath: keyPath].writesDirectly },
            decode: { container, root in
                if let `default` {
                    root[keyPath: keyPath] = try container.decodeIfPresent(Value.self, forKey: key) ?? `default`
                } else {
                    root[keyPath: keyPath] = try container.decode(Value.self, forKey: key)
                }
            },
            encode: { root, container in try container.encode(root[keyPath: keyPath], forKey: key) })
    }

    /// An optional member: absent or `null` reads as `nil`, and `nil` is not written.
    ///
    /// - Parameters:
    ///   - name: the member's name.
    ///   - keyPath: where its value lives.
    package static func member<Value: JSONCodable & Sendable>(
        _ name: String, _ keyPath: any WritableKeyPath<Root, Value?> & Sendable
    )
        -> Self
    {
        let key = AnyCodingKey(stringValue: name)
        return Self(
            name: name, isRequired: false,
            read: { scanner, root throws(JSONScanner.Unreadable) in
                root[keyPath: keyPath] = try scanner.null() ? nil : try Value(scanning: &scanner)
            },
            write: { root, writer in
                if let value = root[keyPath: keyPath] {
                    writer.key(name)
                    value.write(to: &writer)
                }
            },
            writesDirectly: { root in root[keyPath: keyPath]?.writesDirectly ?? true },
            decode: { container, root in
                root[keyPath: keyPath] = try container.decodeIfPresent(Value.self, forKey: key)
            },
            encode: { root, container in try container.encodeIfPresent(root[keyPath: keyPath], forKey: key) })
    }
}

extension JSONObject {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        let table = Self.jsonMembers
        var value = Self.unread
        var seen: UInt64 = 0
        try scanner.object(table.names) { scanner, index throws(JSONScanner.Unreadable) in
            guard let index else {
                // A member kept as a ``JSONValue`` is `JSONDecoder`'s to read.
                guard table.others == nil else { throw JSONScanner.Unreadable() }
                try scanner.skipValue()
                return
            }
            try table.members[index].read(&scanner, &value)
            seen |= 1 << index
        }
        guard seen & table.required == table.required else { throw JSONScanner.Unreadable() }
        self = value
    }

    package var writesDirectly: Bool {
        let table = Self.jsonMembers
        if let others = table.others, !self[keyPath: others].isEmpty {
            return false
        }
        return table.members.allSatisfy { $0.writesDirectly(self) }
    }

    package func write(to writer: inout JSONWriter) {
        let table = Self.jsonMembers
        writer.object { writer in
            for index in table.writingOrder {
                table.members[index].write(self, &writer)
            }
        }
    }

    /// Decodes the members the table names, in its order, and keeps every other member as a
    /// ``JSONValue`` where the table keeps them.
    ///
    /// - Throws: `DecodingError` when a required member is missing or a member is malformed.
    public init(from decoder: any Decoder) throws {
        let table = Self.jsonMembers
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var value = Self.unread
        for member in table.members {
            try member.decode(container, &value)
        }
        if let others = table.others {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys where !table.names(key.stringValue) {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            value[keyPath: others] = members
        }
        self = value
    }

    /// Encodes the members that are present, then the other members the table keeps, skipping
    /// names the table owns so a typed member always wins over a pass-through one.
    ///
    /// - Throws: `EncodingError` only for a non-finite number in a ``JSONValue`` when the encoder
    ///   rejects it.
    public func encode(to encoder: any Encoder) throws {
        let table = Self.jsonMembers
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for member in table.members {
            try member.encode(self, &container)
        }
        if let others = table.others {
            for (name, value) in self[keyPath: others] where !table.names(name) {
                try container.encode(value, forKey: AnyCodingKey(stringValue: name))
            }
        }
    }
}
