import FoundationEssentials

/// Reads and writes the WebAuthn Level 3 JSON forms (WebAuthn L3 §5.1, §5.1.8, §5.1.9).
///
/// Use these rather than `JSONDecoder`/`JSONEncoder` directly: decoding failures become one
/// ``WebAuthnError`` whose reason names the member, and encoding is deterministic.
///
/// ```swift
/// let options = try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: input)
/// let output = WebAuthnJSON.encode(response)
/// ```
public enum WebAuthnJSON {
    /// Decodes a WebAuthn JSON value from UTF-8 bytes.
    ///
    /// Unknown members are ignored, `null` for an optional member reads as absent, and base64url
    /// members may be padded. The ceremony options read themselves (without `JSONDecoder`) when
    /// the text is plain, to the same value; otherwise `JSONDecoder` reads them.
    ///
    /// - Parameters:
    ///   - type: the type to decode, such as ``RegistrationResponseJSON``.
    ///   - bytes: the JSON text.
    /// - Returns: the decoded value.
    /// - Throws: `WebAuthnError.Code.malformedJSON` when the text is not JSON, a required member is
    ///   missing or a member has the wrong type or encoding; the reason starts with the member's
    ///   path, as in `response.attestationObject: …` or `pubKeyCredParams[0].alg: …`.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(WebAuthnError)
        -> Value
    {
        if let readable = type as? any JSONReadable.Type {
            var scanner = JSONScanner(bytes)
            if let value = try? readable.init(scanning: &scanner) as? Value, (try? scanner.end()) != nil {
                return value
            }
        }
        return try decodeWithFoundation(type, from: bytes)
    }

    /// ``decode(_:from:)`` through `JSONDecoder` always: what the options' fast path is tested
    /// against, and what answers whenever it gives up.
    package static func decodeWithFoundation<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8])
        throws(WebAuthnError) -> Value
    {
        let data = Data(bytes)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.isEmpty && (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil
        {
            // FoundationEssentials reports an integer member given a negative, fractional or too
            // large number as "not valid JSON" with no path; the text is JSON, so say what it is.
            throw WebAuthnError(.malformedJSON, "a number does not fit its member (out of range or not an integer)")
        } catch let error as DecodingError {
            throw WebAuthnError(.malformedJSON, reason(for: error))
        } catch {
            throw WebAuthnError(.malformedJSON, "\(error)")
        }
    }

    /// Encodes a WebAuthn JSON value as compact UTF-8 JSON with sorted keys and unescaped `/`.
    ///
    /// Absent optional members are omitted, never written as `null`. The ceremony responses write
    /// themselves (without `JSONEncoder`) to the same bytes, faster.
    ///
    /// - Parameter value: the value to encode, such as ``AuthenticationResponseJSON``.
    /// - Returns: the JSON text.
    /// - Precondition: `value`'s `encode(to:)` does not throw. Every type of this module meets it:
    ///   their members are strings, integers, booleans and ``JSONValue``s, and a non-finite
    ///   ``JSONValue/number(_:)`` is written as a string rather than rejected.
    public static func encode(_ value: some Encodable) -> [UInt8] {
        if let value = value as? any JSONWritable, value.writesDirectly {
            var writer = JSONWriter()
            value.write(to: &writer)
            return writer.bytes
        }
        return encodeWithFoundation(value)
    }

    /// ``encode(_:)`` through `JSONEncoder` always: what ``JSONWritable`` types are tested against.
    package static func encodeWithFoundation(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return Array(try encoder.encode(value))
        } catch {
            preconditionFailure("WebAuthn JSON value failed to encode: \(error)")
        }
    }

    /// `path: what`, for a decoding error.
    private static func reason(for error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): null where \(type) is required"
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// `response.transports[0]`, or `top level` for the root.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "top level" : text
    }
}
