import Synchronization
import WebAuthn

/// The tenant's `DPoP-Nonce` values (RFC 9449 §8, §9): a fresh one on every token and resource
/// response, and the current and the previous one accepted in proofs.
///
/// Accepting the previous one lets a client whose answer was overtaken by one other response
/// still use the nonce it was given; one used after two newer responses gets `use_dpop_nonce`
/// and the newest nonce, and retries. Nonces live in memory: after a restart a client retries once.
final class DPoPNonces: Sendable {
    private struct State {
        var current: String
        var previous: String?
    }

    private let state: Mutex<State>

    init() {
        state = Mutex(State(current: Self.random(), previous: nil))
    }

    /// A new nonce, which becomes the current one.
    func next() -> String {
        let nonce = Self.random()
        state.withLock { state in
            state.previous = state.current
            state.current = nonce
        }
        return nonce
    }

    /// Whether `nonce` is the current or the previous one.
    func accepts(_ nonce: String) -> Bool {
        state.withLock { $0.current == nonce || $0.previous == nonce }
    }

    /// 128 random bits, base64url: unguessable, so a proof signed ahead of time is refused.
    private static func random() -> String {
        Base64URL.encode(SecureRandom.bytes(16))
    }
}
