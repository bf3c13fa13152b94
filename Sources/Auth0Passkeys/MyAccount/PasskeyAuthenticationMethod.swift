public import FoundationEssentials
import WebAuthn

/// A passkey enrolled through My Account: the answer of the verify call (201 Created), decoded
/// as strictly as Auth0.swift 2.16+ decodes it (spec §5.4).
///
/// ```
/// { "id": "passkey|dev_…", "type": "passkey", "identity_user_id": "…", "user_agent": "…",
///   "key_id": "<base64url>", "public_key": "<standard base64, padded>", "user_handle": "<base64url>",
///   "credential_device_type": "multi_device", "credential_backed_up": true,
///   "created_at": "2025-05-15T13:29:32.321Z", "aaguid": "…", "relying_party_id": "…" }
/// ```
///
/// Every member but `user_agent` is required; `created_at` needs fractional seconds.
public struct PasskeyAuthenticationMethod: Sendable, Hashable, Decodable {
    /// Whether a passkey lives on one device or syncs (WebAuthn L3 §6.1.3, backup eligibility).
    public enum DeviceType: String, Sendable, Hashable, Codable {
        /// `single_device`: not backup eligible.
        case singleDevice = "single_device"
        /// `multi_device`: backup eligible, such as a synced platform passkey.
        case multiDevice = "multi_device"
    }

    /// The WebAuthn credential of the method.
    public struct Credential: Sendable, Hashable {
        /// `key_id`: the credential ID, base64url, as sent.
        public let id: String
        /// `public_key`: the COSE key bytes.
        public let publicKey: Data
        /// `user_handle`: the user handle bytes.
        public let userHandle: Data
        /// `credential_device_type`.
        public let deviceType: DeviceType
        /// `credential_backed_up`.
        public let isBackedUp: Bool
    }

    /// `id`, such as `passkey|dev_7Hq2Nw0cYtR4`.
    public let id: String
    /// `type`: `passkey`.
    public let type: String
    /// `identity_user_id`.
    public let userIdentityId: String
    /// `user_agent`: the client that created the passkey.
    public let userAgent: String?
    /// The credential.
    public let credential: Credential
    /// `created_at`.
    public let createdAt: Date
    /// `aaguid`: the authenticator model, in UUID form.
    public let aaguid: String
    /// `relying_party_id`.
    public let relyingPartyIdentifier: String

    private enum Keys: String, CodingKey {
        case id, type
        case userIdentityId = "identity_user_id"
        case userAgent = "user_agent"
        case keyId = "key_id"
        case publicKey = "public_key"
        case userHandle = "user_handle"
        case deviceType = "credential_device_type"
        case backedUp = "credential_backed_up"
        case createdAt = "created_at"
        case aaguid
        case relyingPartyId = "relying_party_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(String.self, forKey: .type)
        userIdentityId = try container.decode(String.self, forKey: .userIdentityId)
        userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
        let publicKeyText = try container.decode(String.self, forKey: .publicKey)
        guard let publicKey = Data(base64Encoded: publicKeyText) else {
            throw DecodingError.dataCorruptedError(
                forKey: .publicKey, in: container, debugDescription: "format not recognized (padded base64 expected)")
        }
        let userHandle = try container.decode(Base64URLBytes.self, forKey: .userHandle)
        credential = Credential(
            id: try container.decode(String.self, forKey: .keyId), publicKey: publicKey, userHandle: userHandle.data,
            deviceType: try container.decode(DeviceType.self, forKey: .deviceType),
            isBackedUp: try container.decode(Bool.self, forKey: .backedUp))
        let created = try container.decode(String.self, forKey: .createdAt)
        // swift-foundation's style also reads a date without fractional seconds; the SDK's does not.
        guard created.contains("."),
            let createdAt = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(created)
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container,
                debugDescription: "format not recognized (ISO 8601 with fractional seconds expected)")
        }
        self.createdAt = createdAt
        aaguid = try container.decode(String.self, forKey: .aaguid)
        relyingPartyIdentifier = try container.decode(String.self, forKey: .relyingPartyId)
    }
}

/// Base64url text decoded as `Data`, failing as the SDK does ("format not recognized").
struct Base64URLBytes: Decodable {
    let data: Data

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = try? Base64URL.decode(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "format not recognized")
        }
        data = Data(bytes)
    }
}
