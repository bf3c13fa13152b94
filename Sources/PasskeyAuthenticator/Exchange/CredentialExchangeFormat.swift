import FoundationEssentials
public import WebAuthn

/// The FIDO Alliance Credential Exchange Format 1.0 (CXF, Proposed Standard 2025-08-14), the
/// part of it that carries passkeys: a header, its accounts, their items, and each item's
/// credentials, of which this library reads and writes the `passkey` type.
///
/// ```
/// { "version": { "major": 1, "minor": 0 }, "exporterRpId": …, "exporterDisplayName": …,
///   "timestamp": seconds since 1970,
///   "accounts": [ { "id": b64url, "username": …, "email": …, "collections": [],
///     "items": [ { "id": b64url, "creationAt": …, "modifiedAt": …, "title": …,
///       "credentials": [ { "type": "passkey", "credentialId": b64url, "rpId": …, "username": …,
///         "userDisplayName": …, "userHandle": b64url, "key": b64url(PKCS#8) } ] } ] } ] }
/// ```
///
/// It holds private keys in the clear: keep it sealed (``SealedCredentialExchange``).
/// `description` counts the passkeys and never shows a key (STYLE §5).
public struct CredentialExchange: Sendable, Codable, CustomStringConvertible {
    /// The format version, `{1, 0}`.
    public var version: Version
    /// The RP ID of the exporting provider.
    public var exporterRpId: String
    /// The exporting provider's name.
    public var exporterDisplayName: String
    /// When the export was made, in seconds since 1970.
    public var timestamp: UInt64
    /// The accounts exported.
    public var accounts: [Account]

    /// The format's version.
    public struct Version: Sendable, Codable, Hashable {
        /// The major version; this library reads 1.
        public var major: Int
        /// The minor version.
        public var minor: Int
    }

    /// A user account of the exporting provider.
    public struct Account: Sendable, Codable {
        /// The account's ID, base64url.
        public var id: Base64URL
        /// The account's user name.
        public var username: String
        /// The account's e-mail address.
        public var email: String
        /// The account's collections; none are written here.
        public var collections: [JSONValue]
        /// The account's items.
        public var items: [Item]
    }

    /// One item of an account: here, one passkey.
    public struct Item: Sendable, Codable {
        /// The item's ID, base64url.
        public var id: Base64URL
        /// When it was made, in seconds since 1970.
        public var creationAt: UInt64?
        /// When it last changed, in seconds since 1970.
        public var modifiedAt: UInt64?
        /// Its title (the RP ID for a passkey written here).
        public var title: String
        /// Its credentials, of every type.
        public var credentials: [Credential]
    }

    /// A credential of an item: a passkey, or a type this library does not take (kept as its
    /// type name, so reading a file with passwords or notes does not fail).
    public enum Credential: Sendable, Codable {
        /// A passkey.
        case passkey(Passkey)
        /// A credential of another type (`basic-auth`, `note`, …).
        case other(type: String)

        private enum CodingKeys: String, CodingKey { case type }

        public init(from decoder: any Decoder) throws {
            let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
            self = type == "passkey" ? .passkey(try Passkey(from: decoder)) : .other(type: type)
        }

        public func encode(to encoder: any Encoder) throws {
            guard case .passkey(let passkey) = self else {
                throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "only passkeys"))
            }
            try passkey.encode(to: encoder)
        }
    }

    /// A passkey (CXF 1.0 `PasskeyCredential`): a WebAuthn credential source with its private key.
    ///
    /// The format carries no counter: passkeys that count are not exported, and imported ones
    /// count from 0 and never advance (CXF 1.0 "PasskeyCredential" note).
    public struct Passkey: Sendable, Codable, CustomStringConvertible {
        /// Always `passkey`.
        public var type = "passkey"
        /// The credential ID.
        public var credentialId: Base64URL
        /// The relying party ID.
        public var rpId: String
        /// The user's account name (`user.name`).
        public var username: String
        /// The user's display name (`user.displayName`).
        public var userDisplayName: String
        /// The user handle (`user.id`).
        public var userHandle: Base64URL
        /// The private key as PKCS#8 (RFC 5958), base64url.
        public var key: Base64URL

        public var description: String {
            "Passkey(\(Base64URL.encode(credentialId.bytes)), rp: \(rpId), user: \(username), key: <redacted>)"
        }
    }

    /// Every passkey of every item of every account.
    public var passkeys: [Passkey] {
        accounts.flatMap(\.items).flatMap(\.credentials).compactMap {
            if case .passkey(let passkey) = $0 { passkey } else { nil }
        }
    }

    public var description: String { "CredentialExchange(\(passkeys.count) passkeys from \(exporterDisplayName))" }
}
