/// Writes JSON text byte for byte as ``WebAuthnJSON/encode(_:)``'s `JSONEncoder` does (sorted
/// keys, `/` unescaped, compact), without the `Encoder` machinery, which costs a passkey `get` a
/// fourth of its time (issue 13's profile). Types whose JSON is fixed and small write themselves
/// through it (``JSONWritable``); tests compare every such type's output with `JSONEncoder`'s.
///
/// Strings follow `JSONEncoder` (RFC 8259 §7): `"` and `\` escaped, U+0008, U+0009, U+000A,
/// U+000C and U+000D as `\b \t \n \f \r`, other controls below U+0020 as `\u00xx` in lowercase
/// hex, everything else as its UTF-8.
package struct JSONWriter {
    /// The text so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether the current object has a member yet, per open object.
    private var hasMember: [Bool] = []

    package init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes an object whose members `body` writes; the caller writes them in key order.
    package mutating func object(_ body: (inout JSONWriter) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        hasMember.append(false)
        body(&self)
        hasMember.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes a member's key; its value follows.
    package mutating func key(_ key: String) {
        if hasMember[hasMember.count - 1] {
            bytes.append(UInt8(ascii: ","))
        }
        hasMember[hasMember.count - 1] = true
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// `"key":"value"`.
    package mutating func member(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    /// `"key":"base64url"`.
    package mutating func member(_ key: String, _ value: Base64URL) {
        self.key(key)
        base64URL(value.bytes)
    }

    /// `"key":true` or `"key":false`.
    package mutating func member(_ key: String, _ value: Bool) {
        self.key(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `"key":-7`.
    package mutating func member(_ key: String, _ value: Int) {
        self.key(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Bytes that are already JSON text, such as `true` or `-7`.
    package mutating func raw(_ text: some Sequence<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// Text that is already JSON, such as `true` or `-7`.
    package mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A base64url string of `value`.
    package mutating func base64URL(_ value: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        Base64URL.append(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"key":["a","b"]`.
    package mutating func member(_ key: String, _ values: [String]) {
        self.key(key)
        array(values) { writer, value in writer.string(value) }
    }

    /// An array whose elements `element` writes.
    package mutating func array<Element>(_ elements: [Element], _ element: (inout JSONWriter, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 {
                bytes.append(UInt8(ascii: ","))
            }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A JSON string.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                Self.appendUnicodeEscape(byte, to: &bytes)
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `\u00xx` (lower-case hex) for a control character below U+0020: how `JSONEncoder`
    /// and WebAuthn's `CCDToString` (L3 §5.8.1.1) both write one.
    package static func appendUnicodeEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output += #"\u00"#.utf8
        Hex.append(byte, to: &output)
    }
}
