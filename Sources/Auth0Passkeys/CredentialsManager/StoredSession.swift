import FoundationEssentials
import WebAuthn

/// The main entry of a ``CredentialsManager``: the stored form of ``Credentials`` and, for
/// DPoP-bound credentials, the private key they are bound to (spec §9, §16.4).
///
/// ```
/// { …the stored form of Credentials…, "dpop_key": BASE64URL(d, 32 bytes) }
/// ```
///
/// The key sits in the same entry as the tokens, so the storage seals both together
/// (``FileCredentialsStorage``: one AES-256-GCM entry): a copy of the tokens without their key is
/// worth nothing to a thief, no key outlives its tokens, and deleting the entry ends both. An
/// entry without `dpop_key` reads as before.
struct StoredSession: Codable {
    let credentials: Credentials
    let dpopKey: DPoPKey?

    private enum CodingKeys: String, CodingKey {
        case dpopKey = "dpop_key"
    }

    init(credentials: Credentials, dpopKey: DPoPKey?) {
        self.credentials = credentials
        self.dpopKey = dpopKey
    }

    init(from decoder: any Decoder) throws {
        credentials = try Credentials(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let raw = try container.decodeIfPresent(Base64URL.self, forKey: .dpopKey) {
            dpopKey = try DPoPKey(rawRepresentation: raw.bytes)
        } else {
            dpopKey = nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        try credentials.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(dpopKey.map { Base64URL($0.rawRepresentation) }, forKey: .dpopKey)
    }

    /// Whether `credentials` are bound to a DPoP key: `token_type` `DPoP`, in any case.
    static func isBound(_ credentials: Credentials) -> Bool {
        credentials.tokenType.lowercased() == "dpop"
    }
}
