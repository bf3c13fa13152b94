/// A strict reader of JSON text (RFC 8259) for the options' fast path (``JSONReadable``): it
/// reads values straight into the WebAuthn types, without `JSONDecoder`'s containers, which cost
/// a passkey `get` a fifth of its time (issue 13's profile).
///
/// It reads only the plain case and gives up (``Unreadable``) on anything else: a syntax error,
/// a duplicate member name, a number that is not a plain integer in range, a string with invalid
/// UTF-8 or a lone surrogate, a byte-order mark, nesting deeper than 32.
/// ``WebAuthnJSON/decode(_:from:)`` then decodes with `JSONDecoder`, whose value or error (with its
/// position) is the answer; so the fast path can only agree with it or step aside, and tests hold
/// it to agreeing.
package struct JSONScanner {
    /// The text is not one this reader takes; `JSONDecoder` decides.
    package struct Unreadable: Error {}

    private let bytes: [UInt8]
    private var index = 0
    /// How many objects and arrays are open; past ``maximumDepth`` the scanner gives up, so that
    /// hostile nesting cannot exhaust the stack (`JSONDecoder` then refuses it at its own limit).
    private var depth = 0
    private static let maximumDepth = 32

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Values

    /// Reads an object, calling `member` with each member's name, positioned at its value, which
    /// `member` must read or skip; a name seen twice gives up.
    package mutating func object(_ member: (inout JSONScanner, String) throws(Unreadable) -> Void)
        throws(Unreadable)
    {
        try expect(UInt8(ascii: "{"))
        try enter()
        defer { depth -= 1 }
        var names: Set<String> = []
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let name = try string()
            guard names.insert(name).inserted else { throw Unreadable() }
            try expect(UInt8(ascii: ":"))
            try member(&self, name)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw Unreadable()
            }
        }
    }

    /// Reads an array, calling `element` once per element, positioned at it.
    package mutating func array(_ element: (inout JSONScanner) throws(Unreadable) -> Void) throws(Unreadable) {
        try expect(UInt8(ascii: "["))
        try enter()
        defer { depth -= 1 }
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return
            default: throw Unreadable()
            }
        }
    }

    /// Reads a string.
    package mutating func string() throws(Unreadable) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        skipUnescapedRun()
        guard index < bytes.count else { throw Unreadable() }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            guard let text = String(validating: bytes[start..<(index - 1)], as: UTF8.self) else { throw Unreadable() }
            return text
        }
        return try escapedString(from: start)
    }

    /// Reads `true` or `false`.
    package mutating func bool() throws(Unreadable) -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw Unreadable()
    }

    /// Reads a plain integer (`-?(0|[1-9][0-9]*)`, no fraction or exponent, no sign for an
    /// unsigned type) that fits `Integer`.
    package mutating func integer<Integer: FixedWidthInteger>(_: Integer.Type) throws(Unreadable) -> Integer {
        try skipWhitespace()
        let start = index
        guard !(try number()), Integer.isSigned || bytes[start] != UInt8(ascii: "-"),
            let value = Integer(String(decoding: bytes[start..<index], as: UTF8.self))
        else {
            throw Unreadable()
        }
        return value
    }

    /// Reads `null` if it comes next, and says whether it did.
    package mutating func null() throws(Unreadable) -> Bool {
        try literal("null")
    }

    /// Reads a string, a boolean or `null` as a ``JSONValue``; gives up on numbers, arrays and
    /// objects, whose ``JSONValue`` is `JSONDecoder`'s to make.
    package mutating func scalar() throws(Unreadable) -> JSONValue {
        switch try peek() {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "n"):
            guard try null() else { throw Unreadable() }
            return .null
        default: throw Unreadable()
        }
    }

    /// Skips a value of any kind, checking its syntax.
    package mutating func skipValue() throws(Unreadable) {
        switch try peek() {
        case UInt8(ascii: "{"): try object { scanner, _ throws(Unreadable) in try scanner.skipValue() }
        case UInt8(ascii: "["): try array { scanner throws(Unreadable) in try scanner.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): guard try literal("null") else { throw Unreadable() }
        default: _ = try number()
        }
    }

    /// Checks that only whitespace follows.
    package mutating func end() throws(Unreadable) {
        skipWhitespaceAtEnd()
        guard index == bytes.count else { throw Unreadable() }
    }

    // MARK: Text

    private mutating func escapedString(from start: Int) throws(Unreadable) -> String {
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
    private mutating func skipUnescapedRun() {
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            index += 1
        }
    }

    /// One escape after its backslash; a surrogate pair is one scalar, a lone surrogate gives up.
    private mutating func escape() throws(Unreadable) -> Unicode.Scalar {
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

    private mutating func hexUnit() throws(Unreadable) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else { throw Unreadable() }
            unit = unit << 4 | digit
            index += 1
        }
        return unit
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// Reads a number by RFC 8259 §6's grammar,
    /// `-? (0 / [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and says whether it had a fraction
    /// or an exponent. What follows it is the caller's to check.
    private mutating func number() throws(Unreadable) -> Bool {
        if current == UInt8(ascii: "-") {
            index += 1
        }
        guard let first = current, Self.isDigit(first) else { throw Unreadable() }
        index += 1
        if first != UInt8(ascii: "0") {
            skipDigits()
        }
        var fractionOrExponent = false
        if current == UInt8(ascii: ".") {
            index += 1
            try digits()
            fractionOrExponent = true
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                index += 1
            }
            try digits()
            fractionOrExponent = true
        }
        return fractionOrExponent
    }

    private mutating func digits() throws(Unreadable) {
        let start = index
        skipDigits()
        guard index > start else { throw Unreadable() }
    }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) {
            index += 1
        }
    }

    private var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func literal(_ word: String, skippingWhitespace: Bool = true) throws(Unreadable) -> Bool {
        if skippingWhitespace {
            try skipWhitespace()
        }
        let utf8 = word.utf8
        guard bytes[index...].starts(with: utf8) else {
            return false
        }
        index += utf8.count
        return true
    }

    private mutating func enter() throws(Unreadable) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Unreadable() }
    }

    private mutating func expect(_ byte: UInt8) throws(Unreadable) {
        guard try next() == byte else { throw Unreadable() }
    }

    private mutating func next() throws(Unreadable) -> UInt8 {
        let byte = try peek()
        index += 1
        return byte
    }

    /// The next byte after whitespace, not consumed.
    private mutating func peek() throws(Unreadable) -> UInt8 {
        try skipWhitespace()
        return bytes[index]
    }

    /// Skips whitespace, and gives up at the end of the text (a value is still to come).
    private mutating func skipWhitespace() throws(Unreadable) {
        skipWhitespaceAtEnd()
        guard index < bytes.count else { throw Unreadable() }
    }

    private mutating func skipWhitespaceAtEnd() {
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
        {
            index += 1
        }
    }
}
