import WebAuthn

/// Request options JSON (WebAuthn L3 §5.1.9) in the plain form relying parties send, read in
/// place by ``JSONScanner`` for ``WebAuthnClient/get(json:origin:topOrigin:)``: no `JSONDecoder`,
/// no value of ``PublicKeyCredentialRequestOptionsJSON``, no string but the RP ID.
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

    private static let members = [
        "challenge", "timeout", "rpId", "allowCredentials", "userVerification", "hints", "extensions",
    ].map { Array($0.utf8) }
    private static let descriptorMembers = ["type", "id", "transports"].map { Array($0.utf8) }
    private static let publicKey = Array(PublicKeyCredentialType.publicKey.rawValue.utf8)

    private init() {}

    /// Reads options, or `nil` when they are not plain.
    init?(_ bytes: [UInt8]) {
        var scanner = JSONScanner(bytes)
        var options = PlainRequestOptions()
        var challenge: Range<Int>?
        do throws(JSONScanner.Unreadable) {
            try scanner.object(Self.members) { scanner, member throws(JSONScanner.Unreadable) in
                // Only these members are plain, and any but the challenge may be `null`.
                guard let member else { throw JSONScanner.Unreadable() }
                if member != 0, try scanner.null() {
                    return
                }
                switch member {
                case 0:
                    let text = try scanner.plainString()
                    guard Base64URL.isCanonical(bytes[text]) else { throw JSONScanner.Unreadable() }
                    challenge = text
                case 1: _ = try scanner.integer(UInt32.self)
                case 2: options.rpID = String(decoding: bytes[try scanner.plainString()], as: UTF8.self)
                case 3:
                    try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Unreadable) in
                        if let id = try Self.descriptor(&scanner, in: bytes) {
                            options.allowList.append(id)
                        }
                    }
                case 4:
                    options.userVerification = UserVerificationRequirement(
                        rawValue: String(decoding: bytes[try scanner.plainString()], as: UTF8.self))
                case 5: try Self.plainStrings(&scanner)
                default: throw JSONScanner.Unreadable()  // extension inputs: only `null` is plain
                }
            }
            try scanner.end()
        } catch {
            return nil
        }
        guard let challenge else { return nil }
        options.challenge = challenge
        self = options
    }

    /// A descriptor's credential ID when its type is `public-key`, `nil` for another type (the
    /// client skips it); gives up when it is not plain.
    private static func descriptor(_ scanner: inout JSONScanner, in bytes: [UInt8]) throws(JSONScanner.Unreadable)
        -> [UInt8]?
    {
        var type: Range<Int>?
        var id: [UInt8]?
        try scanner.object(descriptorMembers) { scanner, member throws(JSONScanner.Unreadable) in
            switch member {
            case 0: type = try scanner.plainString()
            case 1:
                guard let bytes = Base64URL.decodeCanonical(bytes[try scanner.plainString()]) else {
                    throw JSONScanner.Unreadable()
                }
                id = bytes
            case 2:
                if try !scanner.null() {
                    try plainStrings(&scanner)
                }
            default: throw JSONScanner.Unreadable()
            }
        }
        guard let type, let id else { throw JSONScanner.Unreadable() }
        return bytes[type].elementsEqual(publicKey) ? id : nil
    }

    /// An array of plain strings.
    private static func plainStrings(_ scanner: inout JSONScanner) throws(JSONScanner.Unreadable) {
        try scanner.array { (scanner: inout JSONScanner) throws(JSONScanner.Unreadable) in
            _ = try scanner.plainString()
        }
    }
}
