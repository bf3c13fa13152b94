// Strings (RFC 8259 §7): UTF-8 checked, escapes decoded, a surrogate pair one scalar, a lone
// surrogate or a control character unreadable.

extension JSONScanner {
    /// Reads a string of printable ASCII without escapes, and says where its text is: for a
    /// reader that copies the text rather than making a `String` of it.
    package mutating func plainString() throws(Unreadable) -> Range<Int> {
        guard case .plain(let range) = try stringBody(), bytes[range].allSatisfy({ $0 < 0x7F }) else {
            throw Unreadable()
        }
        return range
    }

    /// Reads a string.
    package mutating func string() throws(Unreadable) -> String {
        switch try stringBody() {
        case .plain(let range):
            guard let text = String(validating: bytes[range], as: UTF8.self) else { throw Unreadable() }
            return text
        case .decoded(let text):
            return text
        }
    }

    /// A string read: where its text is when it has no escape (its UTF-8 not yet checked), else
    /// the string its escapes decode to.
    enum StringBody {
        case plain(Range<Int>)
        case decoded(String)
    }

    mutating func stringBody() throws(Unreadable) -> StringBody {
        try expect(UInt8(ascii: "\""))
        let start = index
        skipUnescapedRun()
        guard index < bytes.count else { throw Unreadable() }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return .plain(start..<(index - 1))
        }
        return .decoded(try escapedString(from: start))
    }

    mutating func escapedString(from start: Int) throws(Unreadable) -> String {
        var scalars = String.UnicodeScalarView()
        guard let plain = String(validating: bytes[start..<index], as: UTF8.self) else { throw Unreadable() }
        scalars.append(contentsOf: plain.unicodeScalars)
        while true {
            guard index < bytes.count else { throw Unreadable() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try escape())
            case 0x00..<0x20:
                throw Unreadable()
            default:
                // A run of unescaped bytes up to the next quote or backslash, as UTF-8.
                let run = index - 1
                skipUnescapedRun()
                guard let text = String(validating: bytes[run..<index], as: UTF8.self) else { throw Unreadable() }
                scalars.append(contentsOf: text.unicodeScalars)
            }
        }
    }

    /// Skips bytes up to the next quote, backslash or control character (or the end).
    mutating func skipUnescapedRun() {
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            index += 1
        }
    }

    /// One escape after its backslash; a surrogate pair is one scalar, a lone surrogate gives up.
    mutating func escape() throws(Unreadable) -> Unicode.Scalar {
        guard index < bytes.count else { throw Unreadable() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            if (0xD800..<0xDC00).contains(unit) {
                guard try literal(#"\u"#, skippingWhitespace: false) else { throw Unreadable() }
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low) else { throw Unreadable() }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(unit) else { throw Unreadable() }
            return scalar
        default:
            throw Unreadable()
        }
    }

    mutating func hexUnit() throws(Unreadable) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else { throw Unreadable() }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
