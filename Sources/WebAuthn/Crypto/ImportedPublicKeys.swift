import Synchronization

/// Public keys imported into OpenSSL recently, by their COSE parameters, so that a relying party
/// verifying the same credential again, or a client encoding a key it has just checked, imports
/// it once: an import of a P-256 point builds the curve's group and checks the point, which costs
/// more than the verification it prepares (issue 13's profile).
///
/// Only public keys are kept; at most ``capacity``, the oldest leaving first. `Sendable`: the
/// keys are immutable (``EVPKey``) and the table is behind a mutex.
final class ImportedPublicKeys: Sendable {
    /// The process's table.
    static let shared = ImportedPublicKeys(capacity: 4096)

    /// How many keys are kept.
    let capacity: Int
    private let state: Mutex<State>

    private struct State {
        var keys: [COSEKey.Parameters: EVPKey] = [:]
        /// The keys in the order they came, as a ring; `next` is the oldest once it is full.
        var order: [COSEKey.Parameters] = []
        var next = 0
    }

    init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        state = Mutex(State())
    }

    /// The key with these parameters, imported on first use.
    ///
    /// - Throws: `WebAuthnError` as ``EVPKey/init(publicKey:)``: a key OpenSSL rejects is never kept.
    func key(_ publicKey: COSEKey) throws(WebAuthnError) -> EVPKey {
        let parameters = publicKey.parameters
        if let key = state.withLock({ $0.keys[parameters] }) {
            return key
        }
        let key = try EVPKey(publicKey: publicKey)
        state.withLock { state in
            guard state.keys.updateValue(key, forKey: parameters) == nil else {
                return
            }
            if state.order.count < capacity {
                state.order.append(parameters)
            } else {
                state.keys[state.order[state.next]] = nil
                state.order[state.next] = parameters
                state.next = (state.next + 1) % capacity
            }
        }
        return key
    }
}
