import FoundationEssentials
import WebAuthn

/// The tenant's `DPoP-Nonce` values (RFC 9449 §8, §9): a fresh one on every token and resource
/// response, and any the tenant issued in the last ``lifetime`` accepted in proofs, at whichever
/// instance issued it.
///
/// A nonce carries its own proof of origin, so that no instance writes to the database for it:
/// base64url(issued-at ‖ random ‖ tag), where issued-at is the second it was issued (8 bytes, big
/// endian), random is 8 random bytes (each answer's nonce is new), and tag the first 16 bytes of
/// HMAC-SHA-256 (RFC 2104) over both under a 32-byte key kept in the store's settings
/// (`dpop_nonce_key`), which every instance on the database reads at start. 43 characters, all
/// of RFC 9449 §8.1's `NQCHAR`; opaque to the client, as §8 has them.
///
/// A nonce is accepted from ``lifetime`` seconds before now until ``skew`` seconds after (an
/// instance whose clock runs ahead). A forged, altered, truncated or expired one gets
/// `use_dpop_nonce` and, on the same answer, a fresh nonce: the client retries once, as it does
/// for a first request without one (§8, auth0-passkey-api.md §16.3). A nonce cannot be taken back:
/// one handed out stays good for its lifetime, however many answers come after it.
struct DPoPNonces: Sendable {
    /// How long a nonce is accepted: 5 minutes, as long as a proof's `jti` is remembered
    /// (``PasskeyTenant/proofMemory``). RFC 9449 leaves the lifetime to the server (§8, §11.2:
    /// a nonce bounds how far ahead proofs can be signed; the ±60-second `iat` window bounds
    /// that already); long enough that a client which pauses between calls (a user thinking, a
    /// refresh a few minutes later) is not sent round once more, short enough that a nonce is a
    /// recent server contribution.
    static let lifetime: Double = 300
    /// How far in the future a nonce's issue time may be: the skew `iat` is allowed (±60 s).
    static let skew: Double = 60
    /// The tag's length: 128 bits, past guessing.
    private static let tagLength = 16
    /// The issued-at and random bytes the tag covers.
    private static let bodyLength = 16

    private let key: [UInt8]
    private let clock: TenantClock

    /// Nonces under `key` (32 bytes, from ``key(in:)``), timed by `clock`.
    init(key: [UInt8], clock: TenantClock) {
        self.key = key
        self.clock = clock
    }

    /// The key every instance on `store`'s database signs nonces with: 32 random bytes, made
    /// and stored by the first instance, read by the others.
    ///
    /// - Throws: the store's errors; `server_error` when the stored key is not 32 bytes of
    ///   base64url (the database was changed behind the tenant's back).
    static func key(in store: any TenantStore) async throws(TenantError) -> [UInt8] {
        let text = try await store.setting("dpop_nonce_key") { Base64URL.encode(SecureRandom.bytes(32)) }
        guard let key = Base64URL.decodeCanonical(Array(text.utf8)[...]), key.count == 32 else {
            throw TenantError(.serverError, status: 500, "corrupt dpop_nonce_key setting")
        }
        return key
    }

    /// A new nonce, issued now.
    func next() -> String {
        let issued = Int64(clock.now().timeIntervalSince1970.rounded(.down))
        let body = withUnsafeBytes(of: issued.bigEndian) { Array($0) } + SecureRandom.bytes(8)
        return Base64URL.encode(body + tag(body))
    }

    /// Whether `nonce` is one the tenant (any instance on the database) issued within the
    /// lifetime.
    func accepts(_ nonce: String) -> Bool {
        let text = Array(nonce.utf8)
        guard text.count == 43, let bytes = Base64URL.decodeCanonical(text[...]),
            bytes.count == Self.bodyLength + Self.tagLength
        else { return false }
        let body = bytes.prefix(Self.bodyLength)
        guard constantTimeEquals(tag(body), bytes.suffix(Self.tagLength)) else { return false }
        let issued = body.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let age = clock.now().timeIntervalSince1970 - Double(Int64(bitPattern: issued))
        return age >= -Self.skew && age < Self.lifetime
    }

    /// The truncated HMAC-SHA-256 of a nonce's body.
    private func tag(_ body: some Collection<UInt8>) -> ArraySlice<UInt8> {
        HMACSHA256.authenticationCode(for: body, key: key).prefix(Self.tagLength)
    }
}
