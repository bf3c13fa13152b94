/// JSON text already written, such as the response ``WebAuthnJSON/encode(_:)`` would write that a
/// WebAuthn client wrote straight into bytes: encoding it writes the text as it is, so a front
/// end can put it inside its own answer without reading it back.
///
/// Read as a member (``JSONReadable``), it keeps the member's text as it came: the options of a
/// control server's `get` go to the client's JSON path without being read and written again.
package struct JSONText: JSONReadable, JSONWritable, Sendable, Hashable {
    /// The text, UTF-8.
    package let bytes: [UInt8]

    /// Wraps text.
    ///
    /// - Parameter bytes: JSON text, UTF-8, as ``WebAuthnJSON/encode(_:)`` writes it.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var writesDirectly: Bool { true }

    package func write(to writer: inout JSONWriter) {
        writer.raw(bytes)
    }

    /// An empty text: the placeholder of a required member before it is read (``JSONObject/unread``).
    package static var unread: JSONText { JSONText([]) }

    /// The value's text as it is in the scanned document, its syntax checked.
    package init(scanning scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        bytes = Array(try scanner.rawValue())
    }

    /// Through another `Decoder` (`JSONDecoder`, when the fast read stepped aside), the value
    /// written again as JSON text.
    package init(from decoder: any Decoder) throws {
        bytes = WebAuthnJSON.encode(try JSONValue(from: decoder))
    }

    /// Through another `Encoder`, the JSON value the text is.
    ///
    /// - Throws: `WebAuthnError` when the text is not JSON.
    package func encode(to encoder: any Encoder) throws {
        try WebAuthnJSON.decodeWithFoundation(JSONValue.self, from: bytes).encode(to: encoder)
    }
}
