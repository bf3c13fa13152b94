/// Percent-encoding of one URL path segment or query component (RFC 3986 §2.1, §3.3): every byte
/// but the unreserved characters is `%XX`.
///
/// The one percent-encoding of the package: the Auth0 client writes path segments and queries
/// with it, and the local tenant reads method IDs (`passkey%7Cnew`) with it.
package enum PercentEncoding {
    /// `text` with every byte but `A-Z a-z 0-9 - . _ ~` written as `%XX` (upper-case hex).
    ///
    /// - Parameter text: the text to encode.
    /// - Returns: the encoded text.
    package static func encode(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var output = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                output.append(character)
            } else {
                output += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    /// Decodes `%XX` sequences; a malformed escape stays as it is, and text whose bytes are not
    /// UTF-8 once decoded is returned unchanged.
    ///
    /// - Parameter text: the text to decode.
    /// - Returns: the decoded text.
    package static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
                let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}
