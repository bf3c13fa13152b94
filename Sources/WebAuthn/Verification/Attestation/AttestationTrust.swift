import FoundationEssentials
import SwiftASN1
import Synchronization
import X509

/// What a ``RelyingParty`` has prepared to chain attestation trust paths to its anchors (WebAuthn
/// L3 §7.1 steps 23–24): each set of anchors parsed once into an ``X509TrustStore``, and the
/// chains verified lately, so that the same authenticator model registering again costs its
/// statement's own checks and not a path validation (issue 30's profile: the chain was nine
/// tenths of a registration with a certificate path).
///
/// A cached chain answers only for what path validation decides, and only as long as the
/// answer cannot change:
/// - the key is the anchor set (the format's, or the format's and a metadata entry's) and the
///   SHA-256 of the whole trust path in order, so any other certificate, anchor or order is
///   another chain;
/// - the answer holds for the instants at which every certificate of the chain OpenSSL built is
///   valid; a verification time outside them verifies again, cold, and is refused as before;
/// - only successes are kept: a refusal is verified again each time, so its reason stays
///   OpenSSL's;
/// - a relying party whose ``RelyingParty/trustAnchors`` or ``RelyingParty/metadata`` changes gets
///   a new, empty `AttestationTrust`, and a store whose anchors differ from those asked for is
///   replaced and every chain forgotten.
/// What is particular to one registration (the statement's signature, the format's certificate
/// requirements on the leaf, the AAGUID, the nonce) is checked by the format's verifier every time.
///
/// At most ``capacity`` chains are kept, the oldest leaving first. `Sendable`: the stores are
/// immutable and the tables are behind mutexes.
final class AttestationTrust: Sendable {
    /// How many verified chains are kept.
    let capacity: Int
    private let stores = Mutex<[AnchorSet: X509TrustStore]>([:])
    private let chains: Mutex<BoundedTable<ChainKey, Range<Date>>>
    private let paths: Mutex<BoundedTable<[UInt8], [X509Certificate]>>
    private let swiftCertificates: Mutex<BoundedTable<X509Certificate, Certificate>>

    /// Where a verification's anchors come from: a format's ``RelyingParty/trustAnchors``, with a
    /// metadata entry's roots when the authenticator has one.
    struct AnchorSet: Hashable {
        let format: AttestationFormat
        let metadataEntry: AAGUID?
    }

    /// One trust path against one anchor set.
    private struct ChainKey: Hashable {
        let anchors: AnchorSet
        /// SHA-256 over each certificate's length and DER, in trust-path order (``digest(_:)``).
        let digest: [UInt8]
    }

    /// Creates empty tables.
    init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
        chains = Mutex(BoundedTable(capacity: capacity))
        paths = Mutex(BoundedTable(capacity: capacity))
        swiftCertificates = Mutex(BoundedTable(capacity: capacity))
    }

    /// How many verified chains are kept now.
    var count: Int {
        chains.withLock { $0.count }
    }

    /// How many parsed trust paths are kept now.
    var parsedCount: Int {
        paths.withLock { $0.count }
    }

    /// How many certificates parsed by swift-certificates are kept now.
    var swiftCertificateCount: Int {
        swiftCertificates.withLock { $0.count }
    }

    /// The certificates of an `x5c` (leaf first), each parsed once per distinct `x5c`: parsing
    /// is deterministic, so a path parsed before is the same values; the format's checks on them
    /// still run every time.
    ///
    /// - Parameter failure: the error for certificate `index` failing to parse with `error`.
    /// - Throws: what `failure` gives for the first certificate that does not parse (such a
    ///   path is never kept).
    func certificates(
        _ ders: [[UInt8]], failure: (_ index: Int, _ error: WebAuthnError) -> WebAuthnError
    ) throws(WebAuthnError) -> [X509Certificate] {
        let digest = Self.digest(ders)
        if let certificates = paths.withLock({ $0[digest] }) {
            return certificates
        }
        var certificates: [X509Certificate] = []
        certificates.reserveCapacity(ders.count)
        for der in ders {
            do {
                certificates.append(try X509Certificate(derEncoded: der))
            } catch {
                throw failure(certificates.count, error)
            }
        }
        paths.withLock { $0[digest] = certificates }
        return certificates
    }

    /// `certificate` parsed by swift-certificates (for the certificate profiles read with it,
    /// such as the TPM AIK's, §8.3.1), once per distinct certificate; a certificate that does
    /// not parse is never kept.
    ///
    /// - Throws: swift-certificates' parsing error.
    func swiftCertificate(_ certificate: X509Certificate) throws -> Certificate {
        if let parsed = swiftCertificates.withLock({ $0[certificate] }) {
            return parsed
        }
        let parsed = try Certificate(derEncoded: certificate.derBytes)
        swiftCertificates.withLock { $0[certificate] = parsed }
        return parsed
    }

    /// Verifies that `trustPath` (the leaf first) chains to `anchors` at `time`, answering from a
    /// chain verified before when it is the same chain against the same anchors and `time` lies
    /// within the validity of every certificate it went through.
    ///
    /// - Throws: what ``X509Certificate/verifyChain(leaf:intermediates:trustAnchors:at:)`` throws.
    func verify(
        _ trustPath: [X509Certificate], anchors: [X509Certificate], from anchorSet: AnchorSet, at time: Date
    ) throws(WebAuthnError) {
        guard let leaf = trustPath.first else {
            throw WebAuthnError(.untrustedAttestationRoot, "no attestation certificate to chain")
        }
        let store = try store(for: anchorSet, anchors)
        let key = ChainKey(anchors: anchorSet, digest: Self.digest(trustPath.map(\.derBytes)))
        let instant = Date(timeIntervalSince1970: TimeInterval(X509TrustStore.checkTime(time)))
        if let validity = chains.withLock({ $0[key] }), validity.contains(instant) {
            return
        }
        let validity = try store.verify(leaf: leaf, intermediates: Array(trustPath.dropFirst()), at: time)
        chains.withLock { $0[key] = validity }
    }

    /// The store for `anchorSet`, parsed on first use, or again when its anchors are not `anchors`
    /// (then every chain verified before is forgotten).
    private func store(for anchorSet: AnchorSet, _ anchors: [X509Certificate]) throws(WebAuthnError)
        -> X509TrustStore
    {
        if let store = stores.withLock({ $0[anchorSet] }), store.anchors == anchors {
            return store
        }
        let store = try X509TrustStore(anchors: anchors)
        stores.withLock { $0[anchorSet] = store }
        chains.withLock { $0.removeAll() }
        return store
    }

    /// SHA-256 over each DER's length (4 bytes, big-endian) and bytes, in order.
    private static func digest(_ ders: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ders.reduce(0) { $0 + 4 + $1.count })
        for der in ders {
            let count = UInt32(der.count)
            bytes += [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF), UInt8(count & 0xFF)]
            bytes += der
        }
        return SHA256Digest.hash(bytes)
    }
}

/// A table of at most `capacity` entries, the oldest leaving first.
struct BoundedTable<Key: Hashable, Value> {
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// The keys in the order they came, as a ring; `next` is the oldest once it is full.
    private var order: [Key] = []
    private var next = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { values.count }

    /// The value for `key`; setting one adds it (evicting the oldest when full) or replaces it.
    subscript(key: Key) -> Value? {
        get { values[key] }
        set {
            guard let newValue else {
                values[key] = nil
                return
            }
            guard values.updateValue(newValue, forKey: key) == nil else {
                return
            }
            if order.count < capacity {
                order.append(key)
            } else {
                values[order[next]] = nil
                order[next] = key
                next = (next + 1) % capacity
            }
        }
    }

    mutating func removeAll() {
        values = [:]
        order = []
        next = 0
    }
}
