// The two halves of the package's one hand-written JSON codec: a value reads itself with
// ``JSONScanner`` and writes itself with ``JSONWriter``, to what its `Codable` conformance gives
// (tests hold the two to agreeing). The WebAuthn JSON types get both halves, and `Codable`, from
// one declaration of their members (``JSONObject``); the values members hold (strings, integers,
// booleans, base64url, open string enumerations, arrays, records) conform here.

/// A WebAuthn JSON value that reads itself from JSON text with ``JSONScanner``, to the value its
/// `Decodable` conformance gives, or gives up; ``WebAuthnJSON/decode(_:from:)`` tries this first.
package protocol JSONReadable: Decodable {
    /// Reads the value at the scanner's position.
    init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable)
}

/// A WebAuthn JSON value that can write itself with ``JSONWriter``, byte for byte as
/// `JSONEncoder` would; ``WebAuthnJSON/encode(_:)`` takes this path when ``writesDirectly`` holds.
package protocol JSONWritable: Encodable {
    /// Whether ``write(to:)`` covers this value: `false` when it holds members only `JSONEncoder`
    /// writes (a ``JSONValue``, whose numbers JSONEncoder formats).
    var writesDirectly: Bool { get }

    /// Writes the value.
    func write(to writer: inout JSONWriter)
}

/// A value both halves of the codec handle: what a member of a ``JSONObject`` holds.
package typealias JSONCodable = JSONReadable & JSONWritable

extension JSONWritable {
    /// A value writes itself unless it says otherwise.
    package var writesDirectly: Bool { true }
}

/// An integer member (`timeout`, `alg`, `publicKeyAlgorithm`): a plain integer that fits, with
/// no fraction or exponent, as `JSONEncoder` writes it.
package protocol JSONInteger: FixedWidthInteger, JSONReadable, JSONWritable {}

extension JSONInteger {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        self = try scanner.integer(Self.self)
    }

    package func write(to writer: inout JSONWriter) {
        writer.raw(String(self))
    }
}

extension Int: JSONInteger {}
extension UInt32: JSONInteger {}

extension String: JSONReadable, JSONWritable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        self = try scanner.string()
    }

    package func write(to writer: inout JSONWriter) {
        writer.string(self)
    }
}

extension Bool: JSONReadable, JSONWritable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        self = try scanner.bool()
    }

    package func write(to writer: inout JSONWriter) {
        writer.raw(self ? "true" : "false")
    }
}

extension Base64URL: JSONReadable, JSONWritable {
    /// A base64url string, as the `Decodable` conformance reads it (padding allowed).
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        guard let bytes = try? Base64URL.decode(try scanner.string()) else { throw JSONScanner.Unreadable() }
        self.init(bytes)
    }

    package func write(to writer: inout JSONWriter) {
        writer.base64URL(bytes)
    }
}

extension OpenStringEnumeration: JSONReadable, JSONWritable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        self.init(rawValue: try scanner.string())
    }

    package func write(to writer: inout JSONWriter) {
        writer.string(rawValue)
    }
}

extension Array: JSONReadable where Element: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var values: [Element] = []
        try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Unreadable) in
            values.append(try Element(scanning: &scanner))
        }
        self = values
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    package var writesDirectly: Bool { allSatisfy(\.writesDirectly) }

    package func write(to writer: inout JSONWriter) {
        writer.array(self) { writer, element in element.write(to: &writer) }
    }
}

/// A record (`record<DOMString, T>`, as `evalByCredential`): members by name, none twice.
extension Dictionary: JSONReadable where Key == String, Value: JSONReadable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        var values: [String: Value] = [:]
        try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
            values[name] = try Value(scanning: &scanner)
        }
        self = values
    }
}

/// Written in the byte order of the names, which is `JSONEncoder`'s `.sortedKeys` order for ASCII
/// names only: a record with another name is `JSONEncoder`'s to write.
extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    package var writesDirectly: Bool {
        allSatisfy { name, value in name.utf8.allSatisfy { $0 < 0x80 } && value.writesDirectly }
    }

    package func write(to writer: inout JSONWriter) {
        writer.object { writer in
            for name in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                writer.key(name)
                self[name]?.write(to: &writer)
            }
        }
    }
}

/// Numbers are `JSONDecoder`'s to read and `JSONEncoder`'s to write (their `Double` forms), so a
/// ``JSONValue`` never takes the fast paths.
extension JSONValue: JSONReadable, JSONWritable {
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        throw JSONScanner.Unreadable()
    }

    package var writesDirectly: Bool { false }

    package func write(to writer: inout JSONWriter) {
        writer.raw(WebAuthnJSON.encodeWithFoundation(self))
    }
}
