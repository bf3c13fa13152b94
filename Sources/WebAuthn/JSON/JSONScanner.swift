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
    package struct Unreadable: Error {
        package init() {}
    }

    let bytes: [UInt8]
    var index = 0
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
        var names: Set<String> = []
        try sequence(UInt8(ascii: "{"), UInt8(ascii: "}")) { scanner throws(Unreadable) in
            let name = try scanner.string()
            guard names.insert(name).inserted else { throw Unreadable() }
            try scanner.expect(UInt8(ascii: ":"))
            try member(&scanner, name)
        }
    }

    /// Reads an object whose members a table names (``JSONMembers``): `member` gets the index in
    /// `names` of each member's name, or `nil` for a name not there, positioned at its value,
    /// which it must read or skip; a name seen twice gives up. Names compare as bytes, so a
    /// member's name costs no `String` unless it is not in the table.
    package mutating func object(_ names: [[UInt8]], _ member: (inout JSONScanner, Int?) throws(Unreadable) -> Void)
        throws(Unreadable)
    {
        var seen: UInt64 = 0
        var others: Set<String> = []
        try sequence(UInt8(ascii: "{"), UInt8(ascii: "}")) { scanner throws(Unreadable) in
            let known: Int?
            switch try scanner.stringBody() {
            case .plain(let range):
                let raw = scanner.bytes[range]
                known = names.firstIndex { $0.count == raw.count && $0.elementsEqual(raw) }
                if known == nil {
                    guard let text = String(validating: raw, as: UTF8.self), others.insert(text).inserted else {
                        throw Unreadable()
                    }
                }
            case .decoded(let text):
                known = names.firstIndex { $0.elementsEqual(text.utf8) }
                guard known != nil || others.insert(text).inserted else { throw Unreadable() }
            }
            if let known {
                guard seen & 1 << known == 0 else { throw Unreadable() }
                seen |= 1 << known
            }
            try scanner.expect(UInt8(ascii: ":"))
            try member(&scanner, known)
        }
    }

    /// Reads an array, calling `element` once per element, positioned at it.
    package mutating func array(_ element: (inout JSONScanner) throws(Unreadable) -> Void) throws(Unreadable) {
        try sequence(UInt8(ascii: "["), UInt8(ascii: "]"), element)
    }

    /// Reads `open`, elements separated by commas, and `close`: an object's members or an array's
    /// elements, which `element` reads.
    private mutating func sequence(
        _ open: UInt8, _ close: UInt8, _ element: (inout JSONScanner) throws(Unreadable) -> Void
    ) throws(Unreadable) {
        try expect(open)
        try enter()
        defer { depth -= 1 }
        if try peek() == close {
            index += 1
            return
        }
        while true {
            try element(&self)
            switch try next() {
            case UInt8(ascii: ","): continue
            case close: return
            default: throw Unreadable()
            }
        }
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

    /// Skips a value of any kind, checking its syntax as ``skipValue()`` does, and returns its text
    /// as it is, for a member whose reader is another's: a ceremony's options handed on to the
    /// client's JSON path without being read and written again.
    package mutating func rawValue() throws(Unreadable) -> ArraySlice<UInt8> {
        try skipWhitespace()
        let start = index
        try skipValue()
        return bytes[start..<index]
    }

    /// Checks that only whitespace follows.
    package mutating func end() throws(Unreadable) {
        skipWhitespaceAtEnd()
        guard index == bytes.count else { throw Unreadable() }
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

    var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    mutating func literal(_ word: String, skippingWhitespace: Bool = true) throws(Unreadable) -> Bool {
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

    mutating func expect(_ byte: UInt8) throws(Unreadable) {
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
