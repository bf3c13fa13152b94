import Synchronization

/// Public keys imported into OpenSSL recently, so that a relying party verifying the same
/// credential again, or a client encoding a key it has just checked, imports it once: an import
/// of a P-256 point builds the curve's group and checks the point, which costs more than the
/// verification it prepares (issue 13's profile).
///
/// Two tables: keys by their COSE parameters (``key(_:)``), and keys prepared to verify by the
/// COSE_Key bytes a credential record keeps (``prepared(encoded:)``), so that an assertion of a
/// credential seen before neither decodes its key nor looks its algorithm's verification up
/// (issue 46). Only public keys are kept; at most ``capacity`` in each table, the oldest leaving
/// first; a key that fails to decode or import is never kept. `Sendable`: the keys are immutable
/// (``EVPKey``) and the tables are behind mutexes.
final class ImportedPublicKeys: Sendable {
    /// The process's tables.
    static let shared = ImportedPublicKeys(capacity: 4096)

    /// How many keys each table keeps.
    let capacity: Int
    private let keys: Mutex<BoundedTable<COSEKey.Parameters, EVPKey>>
    private let preparedKeys: Mutex<BoundedTable<[UInt8], PreparedPublicKey>>

    init(capacity: Int) {
        self.capacity = capacity
        keys = Mutex(BoundedTable(capacity: capacity))
        preparedKeys = Mutex(BoundedTable(capacity: capacity))
    }

    /// The key with these parameters, imported on first use.
    ///
    /// - Throws: `WebAuthnError` as ``EVPKey/init(publicKey:)``: a key OpenSSL rejects is never kept.
    func key(_ publicKey: COSEKey) throws(WebAuthnError) -> EVPKey {
        let parameters = publicKey.parameters
        if let key = keys.withLock({ $0[parameters] }) {
            return key
        }
        let key = try EVPKey(publicKey: publicKey)
        return keys.withLock { keys in
            if let kept = keys[parameters] {
                return kept  // imported meanwhile by another thread: one key object per key
            }
            keys.insert(key, for: parameters)
            return key
        }
    }

    /// The key a credential record keeps as COSE_Key bytes (WebAuthn L3 §6.5.1.1), decoded and
    /// prepared to verify on first use.
    ///
    /// - Throws: `WebAuthnError` as ``COSEKey/init(bytes:)`` and ``PreparedPublicKey/init(_:)``.
    func prepared(encoded: [UInt8]) throws(WebAuthnError) -> PreparedPublicKey {
        if let prepared = preparedKeys.withLock({ $0[encoded] }) {
            return prepared
        }
        let prepared = try PreparedPublicKey(COSEKey(bytes: encoded), importingInto: self)
        preparedKeys.withLock { $0.insert(prepared, for: encoded) }
        return prepared
    }
}
