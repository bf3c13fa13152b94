import FoundationEssentials

/// Collected client data (WebAuthn L3 §5.8.1): the JSON a client builds for a ceremony, whose
/// SHA-256 the authenticator signs.
///
/// ```
/// {"type":"webauthn.create"|"webauthn.get","challenge":<base64url>,"origin":<origin>,
///  "crossOrigin":<bool>[,"topOrigin":<origin>][,<other members>]}
/// ```
///
/// Building serializes in exactly that member order with the escaping of §5.8.1.1 (`CCDToString`),
/// so a relying party that uses the limited verification algorithm accepts it. Parsing is full
/// JSON: members in any order, unknown members kept in ``otherMembers`` (§5.8.1.2), and the bytes
/// kept exactly as received in ``bytes``.
public struct CollectedClientData: Sendable, Hashable {
    /// The ceremony a client data belongs to (`type`): an open set of strings (see
    /// ``OpenStringEnumeration``).
    public typealias CeremonyType = OpenStringEnumeration<CeremonyTypeValues>

    /// `type`.
    public let type: CeremonyType
    /// `challenge`, the base64url text as the client wrote it.
    public let challenge: String
    /// `origin`, the caller's origin as the client saw it.
    public let origin: String
    /// `crossOrigin`: whether the caller was in a cross-origin iframe; nil when absent.
    public let crossOrigin: Bool?
    /// `topOrigin`: the top-level origin, present only for cross-origin calls.
    public let topOrigin: String?
    /// Every other member, unread (for example `tokenBinding`, `extraData`, `androidPackageName`).
    public let otherMembers: [String: JSONValue]
    /// The JSON bytes, exactly as received or built: what is hashed.
    public let bytes: [UInt8]

    /// Parses client data JSON.
    ///
    /// - Throws: `WebAuthnError.Code.malformedClientData` for bytes that are not a UTF-8 JSON
    ///   object, or whose `type`, `challenge`, `origin`, `crossOrigin` or `topOrigin` are missing
    ///   or of the wrong JSON type.
    public init(bytes: some Collection<UInt8>) throws(WebAuthnError) {
        let bytes = Array(bytes)
        let members: [String: JSONValue]
        if let plain = Self.plainMembers(bytes) {
            members = plain
        } else {
            do {
                members = try JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))
            } catch {
                throw WebAuthnError(.malformedClientData, "clientDataJSON is not a JSON object")
            }
        }
        func string(_ name: String) throws(WebAuthnError) -> String? {
            guard let value = members[name] else { return nil }
            guard let text = value.stringValue else {
                throw WebAuthnError(.malformedClientData, "clientDataJSON member \(name) is not a string")
            }
            return text
        }
        func required(_ name: String) throws(WebAuthnError) -> String {
            guard let text = try string(name) else {
                throw WebAuthnError(.malformedClientData, "clientDataJSON has no \(name)")
            }
            return text
        }
        type = CeremonyType(rawValue: try required("type"))
        challenge = try required("challenge")
        origin = try required("origin")
        topOrigin = try string("topOrigin")
        if let value = members["crossOrigin"] {
            guard let flag = value.boolValue else {
                throw WebAuthnError(.malformedClientData, "clientDataJSON member crossOrigin is not a boolean")
            }
            crossOrigin = flag
        } else {
            crossOrigin = nil
        }
        otherMembers = members.filter { !Self.knownMembers.contains($0.key) }
        self.bytes = bytes
    }

    /// The members of client data whose values are all strings, booleans or `null` (what browsers
    /// and authenticators send), read by ``JSONScanner`` rather than `JSONDecoder`, a tenth of a
    /// relying party's verification (issue 13); `nil` for anything else, which `JSONDecoder` reads.
    private static func plainMembers(_ bytes: [UInt8]) -> [String: JSONValue]? {
        var scanner = JSONScanner(bytes)
        var members: [String: JSONValue] = [:]
        do throws(JSONScanner.Unreadable) {
            try scanner.object { scanner, name throws(JSONScanner.Unreadable) in
                members[name] = try scanner.scalar()
            }
            try scanner.end()
        } catch {
            return nil
        }
        return members
    }

    /// Builds client data as a WebAuthn client does (WebAuthn L3 §5.8.1.1, "Serialization").
    ///
    /// - Parameters:
    ///   - type: the ceremony.
    ///   - challenge: the challenge bytes from the options; written base64url.
    ///   - origin: the caller's origin, serialized per RFC 6454.
    ///   - crossOrigin: whether the caller is a cross-origin iframe; always written.
    ///   - topOrigin: the top-level origin, written only when given (cross-origin calls).
    public init(
        type: CeremonyType, challenge: [UInt8], origin: String, crossOrigin: Bool = false, topOrigin: String? = nil
    ) {
        self.type = type
        self.challenge = Base64URL.encode(challenge)
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.otherMembers = [:]
        var json: [UInt8] = []
        json.reserveCapacity(96 + self.challenge.utf8.count + origin.utf8.count + (topOrigin?.utf8.count ?? 0))
        Self.appendJSON(
            type: type, challenge: self.challenge.utf8, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin,
            to: &json)
        self.bytes = json
    }

    /// Appends the JSON that ``init(type:challenge:origin:crossOrigin:topOrigin:)`` builds, member
    /// by member in §5.8.1.1's order, for a challenge already in its base64url text: for a client
    /// that writes the client data where it needs it rather than into a value.
    ///
    /// - Parameters:
    ///   - type: the ceremony.
    ///   - challenge: the challenge's unpadded base64url text, as ``Base64URL/encode(_:)`` writes it.
    ///   - origin: the caller's origin, serialized per RFC 6454.
    ///   - crossOrigin: whether the caller is a cross-origin iframe.
    ///   - topOrigin: the top-level origin, written only when given.
    ///   - json: where to append.
    package static func append(
        type: CeremonyType, challenge: ArraySlice<UInt8>, origin: String, crossOrigin: Bool, topOrigin: String?,
        to json: inout [UInt8]
    ) {
        // Concrete, so that a client in another module runs code made for it, not the generic one.
        appendJSON(
            type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin, to: &json)
    }

    private static func appendJSON(
        type: CeremonyType, challenge: some Collection<UInt8>, origin: String, crossOrigin: Bool, topOrigin: String?,
        to json: inout [UInt8]
    ) {
        json += #"{"type":"#.utf8
        appendCCDString(type.rawValue.utf8, to: &json)
        json += #","challenge":"#.utf8
        appendCCDString(challenge, to: &json)
        json += #","origin":"#.utf8
        appendCCDString(origin.utf8, to: &json)
        json += #","crossOrigin":"#.utf8
        json += (crossOrigin ? "true" : "false").utf8
        if let topOrigin {
            json += #","topOrigin":"#.utf8
            appendCCDString(topOrigin.utf8, to: &json)
        }
        json.append(UInt8(ascii: "}"))
    }

    /// SHA-256 of ``bytes``: the `clientDataHash` an authenticator signs (WebAuthn L3 §5.8.1).
    public var hash: [UInt8] { SHA256Digest.hash(bytes) }

    private static let knownMembers: Set<String> = ["type", "challenge", "origin", "crossOrigin", "topOrigin"]

    /// Appends `CCDToString(text)` (WebAuthn L3 §5.8.1.1) as UTF-8: a JSON string that escapes
    /// only `"`, `\` and the code points below U+0020, the latter as lower-case `\uXXXX`. Every
    /// other code point is copied as its UTF-8 bytes (none of which is below 0x20, `"` or `\`).
    static func appendCCDString(_ text: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                output += [UInt8(ascii: "\\"), byte]
            case 0x00..<0x20:
                JSONWriter.appendUnicodeEscape(byte, to: &output)
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension CollectedClientData.CeremonyType {
    /// Registration: `navigator.credentials.create()`.
    public static var create: Self { "webauthn.create" }
    /// Authentication: `navigator.credentials.get()`.
    public static var get: Self { "webauthn.get" }
}
