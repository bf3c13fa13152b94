import Synchronization
import WebAuthn

/// The private keys a software store has opened recently, so that a process signing with the
/// same credential many times (a test suite, a benchmark) unseals and parses each key once, as a
/// platform authenticator keeps its keys in its secure element rather than unsealing per use.
///
/// Keys are found by their sealed bytes, which bind the credential ID and RP ID (see
/// ``SealedKeys``), so a replaced or tampered record is never served a stale key. At most
/// ``capacity`` keys are kept; the oldest goes first.
final class OpenedKeys: Sendable {
    /// How many keys are kept.
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var keys: [SealedBytes: SigningKey] = [:]
        var order: [SealedBytes] = []
    }

    /// Sealed bytes as a key, hashed in one piece rather than byte by byte as `[UInt8]` is (a
    /// tenth of a `get` outside its signature, issue 30's profile).
    private struct SealedBytes: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// The key sealed as `sealed`, opened by `open` on first use.
    func key(sealed: [UInt8], open: () throws(StoreError) -> SigningKey) throws(StoreError)
        -> SigningKey
    {
        let sealed = SealedBytes(bytes: sealed)
        if let key = state.withLock({ $0.keys[sealed] }) {
            return key
        }
        let key = try open()
        state.withLock { state in
            if state.keys.updateValue(key, forKey: sealed) == nil {
                state.order.append(sealed)
            }
            if state.order.count > capacity {
                state.keys[state.order.removeFirst()] = nil
            }
        }
        return key
    }
}
