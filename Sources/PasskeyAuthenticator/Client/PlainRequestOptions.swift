import WebAuthn

/// Request options JSON (WebAuthn L3 §5.1.9) in the plain form relying parties send, read in
/// place for ``WebAuthnClient/get(json:origin:topOrigin:)``: no `JSONDecoder`, no value of
/// ``PublicKeyCredentialRequestOptionsJSON``, no string but the RP ID.
///
/// ```
/// {"challenge":<b64u>[,"timeout":<uint32>][,"rpId":<text>][,"allowCredentials":[<descriptor>,...]]
///  [,"userVerification":<text>][,"hints":[<text>,...]][,"extensions":null]}     members in any order
/// descriptor = {"type":<text>,"id":<b64u>[,"transports":[<text>,...]]}           members in any order
/// ```
///
/// Plain means: only those members (any may be `null` but the challenge, a descriptor's type and
/// ID), none twice, no extension inputs, every string printable ASCII without escapes, base64url
/// in its canonical form (``Base64URL/isCanonical(_:)``), integers without sign, fraction or
/// exponent. Anything else is `nil`, and the options are decoded as ``WebAuthnJSON`` decodes
/// them, to their value or error: this reader can only agree with it or step aside.
struct PlainRequestOptions {
    /// Where the challenge's base64url text is in the options (canonical, so it is also what the
    /// client data carries).
    var challenge: Range<Int> = 0..<0
    /// `rpId`, if given.
    var rpID: String?
    /// The IDs of the `public-key` descriptors of `allowCredentials`, in order.
    var allowList: [[UInt8]] = []
    /// `userVerification`, if given.
    var userVerification: UserVerificationRequirement?

    private static let members: [[UInt8]] = [
        "challenge", "timeout", "rpId", "allowCredentials", "userVerification", "hints", "extensions",
    ].map { Array($0.utf8) }
    private static let descriptorMembers: [[UInt8]] = ["type", "id", "transports"].map { Array($0.utf8) }
    private static let publicKey = Array(PublicKeyCredentialType.publicKey.rawValue.utf8)

    private init() {}

    /// Reads options, or `nil` when they are not plain.
    init?(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        var challenge: Range<Int>?
        var options = PlainRequestOptions()
        let read = reader.object(Self.members) { reader, member in
            guard !reader.null() else {
                return member != 0  // the challenge is required
            }
            switch member {
            case 0:
                guard let text = reader.string(), Base64URL.isCanonical(bytes[text]) else { return false }
                challenge = text
            case 1:
                return reader.unsignedInteger(UInt32.self)
            case 2:
                guard let text = reader.string() else { return false }
                options.rpID = String(decoding: bytes[text], as: UTF8.self)
            case 3:
                return reader.array { reader in
                    guard let id = Self.descriptor(&reader) else { return false }
                    if let id {
                        options.allowList.append(id)
                    }
                    return true
                }
            case 4:
                guard let text = reader.string() else { return false }
                options.userVerification = UserVerificationRequirement(
                    rawValue: String(decoding: bytes[text], as: UTF8.self))
            case 5:
                return reader.array { reader in reader.string() != nil }
            default:
                return false  // extension inputs: only `null` is plain
            }
            return true
        }
        guard read, reader.atEnd, let challenge else {
            return nil
        }
        options.challenge = challenge
        self = options
    }

    /// A descriptor's credential ID when its type is `public-key`, `.some(nil)` for another type
    /// (the client skips it), `nil` when it is not plain.
    private static func descriptor(_ reader: inout Reader) -> [UInt8]?? {
        var type: Range<Int>?
        var id: [UInt8]?
        let read = reader.object(descriptorMembers) { reader, member in
            switch member {
            case 0:
                type = reader.string()
                return type != nil
            case 1:
                id = reader.string().flatMap { Base64URL.decodeCanonical(reader.bytes[$0]) }
                return id != nil
            default:
                return reader.null() || reader.array { reader in reader.string() != nil }
            }
        }
        guard read, let type, let id else {
            return nil
        }
        return .some(reader.bytes[type].elementsEqual(publicKey) ? id : nil)
    }

    /// A cursor over the JSON text that reads only the plain forms and says `false` or `nil` at
    /// anything else.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        /// Whether only whitespace is left.
        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }

        /// An object whose member names are among `names`, each at most once; `member` reads the
        /// value of the member with that index in `names`.
        mutating func object(_ names: [[UInt8]], _ member: (inout Reader, Int) -> Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            if take(UInt8(ascii: "}")) { return true }
            var seen: UInt32 = 0
            repeat {
                guard let name = string(),
                    let known = names.firstIndex(where: { $0.count == name.count && bytes[name].elementsEqual($0) }),
                    seen & 1 << known == 0, take(UInt8(ascii: ":")), member(&self, known)
                else {
                    return false
                }
                seen |= 1 << known
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        }

        /// An array whose elements `element` reads.
        mutating func array(_ element: (inout Reader) -> Bool) -> Bool {
            guard take(UInt8(ascii: "[")) else { return false }
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                guard element(&self) else { return false }
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        }

        /// A string of printable ASCII without escapes: where its text is.
        mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                guard (0x20...0x7E).contains(bytes[index]), bytes[index] != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            guard index < bytes.count else { return nil }
            index += 1
            return start..<(index - 1)
        }

        /// An integer of decimal digits without a leading zero (or `0`) that fits `Integer`.
        mutating func unsignedInteger<Integer: FixedWidthInteger & UnsignedInteger>(_: Integer.Type) -> Bool {
            skipWhitespace()
            let start = index
            var value: Integer = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(Integer(bytes[index] - UInt8(ascii: "0")))
                guard !overflow, !carry, index == start || bytes[start] != UInt8(ascii: "0") else { return false }
                value = sum
                index += 1
            }
            guard index > start, index == bytes.count || !Self.continuesNumber(bytes[index]) else { return false }
            return true
        }

        /// `null`, taken if it comes next.
        mutating func null() -> Bool {
            skipWhitespace()
            guard bytes[index...].starts(with: "null".utf8) else { return false }
            index += 4
            return true
        }

        /// Takes `byte` if it comes next (after whitespace).
        private mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipWhitespace() {
            while index < bytes.count,
                bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
            {
                index += 1
            }
        }

        /// Whether a byte after digits would make them a longer number (fraction, exponent).
        private static func continuesNumber(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
        }
    }
}
