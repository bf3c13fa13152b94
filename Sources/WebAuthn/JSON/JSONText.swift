/// JSON text already written, such as the response ``WebAuthnJSON/encode(_:)`` would write that a
/// WebAuthn client wrote straight into bytes: encoding it writes the text as it is, so a front
/// end can put it inside its own answer without reading it back.
package struct JSONText: JSONWritable, Sendable, Hashable {
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

    /// Through another `Encoder`, the JSON value the text is.
    ///
    /// - Throws: `WebAuthnError` when the text is not JSON.
    package func encode(to encoder: any Encoder) throws {
        try WebAuthnJSON.decodeWithFoundation(JSONValue.self, from: bytes).encode(to: encoder)
    }
}
