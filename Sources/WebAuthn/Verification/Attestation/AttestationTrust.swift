import FoundationEssentials
import Synchronization

/// What a ``RelyingParty`` has prepared to chain attestation trust paths to its anchors (WebAuthn
/// L3 §7.1 steps 23–24): each set of anchors parsed once into an ``X509TrustStore``, and the
/// chains verified lately, so that the same authenticator model registering again costs its
/// statement's own checks and not a path validation (issue 30's profile: the chain was nine
/// tenths of a registration with a certificate path).
///
/// A cached chain answers only for what path validation decides, and only as long as the
/// answer cannot change:
/// - the key is the anchor set (the format's, or the format's and a metadata entry's) and the
///   SHA-256 of the whole trust path in order (``TrustPath/digest``, computed once per
///   registration: the same digest finds the parsed path and the verified chain), so any other
///   certificate, anchor or order is another chain;
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
/// Each certificate has one representation, OpenSSL's (``X509Certificate``): what the formats
/// read and what chain verification takes, parsed once per distinct `x5c`.
///
/// At most ``capacity`` chains and as many parsed paths are kept, the oldest leaving first.
/// `Sendable`: the stores are immutable and the tables are behind mutexes.
final class AttestationTrust: Sendable {
    /// How many verified chains are kept.
    let capacity: Int
    private let stores = Mutex<[AnchorSet: X509TrustStore]>([:])
    private let chains: Mutex<BoundedTable<ChainKey, Range<Date>>>
    private let paths: Mutex<BoundedTable<[UInt8], TrustPath>>

    /// Where a verification's anchors come from: a format's ``RelyingParty/trustAnchors``, with a
    /// metadata entry's roots when the authenticator has one.
    struct AnchorSet: Hashable {
        let format: AttestationFormat
        let metadataEntry: AAGUID?
    }

    /// One trust path against one anchor set.
    private struct ChainKey: Hashable {
        let anchors: AnchorSet
        /// The path's ``TrustPath/digest``.
        let digest: [UInt8]
    }

    /// Creates empty tables.
    init(capacity: Int = 1024) {
        precondition(capacity > 0)
        self.capacity = capacity
        chains = Mutex(BoundedTable(capacity: capacity))
        paths = Mutex(BoundedTable(capacity: capacity))
    }

    /// How many verified chains are kept now.
    var count: Int {
        chains.withLock { $0.count }
    }

    /// How many parsed trust paths are kept now.
    var parsedCount: Int {
        paths.withLock { $0.count }
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
    ) throws(WebAuthnError) -> TrustPath {
        let digest = TrustPath.digest(ders)
        if let path = paths.withLock({ $0[digest] }) {
            return path
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
        let path = TrustPath(certificates: certificates, digest: digest)
        paths.withLock { $0.insert(path, for: digest) }
        return path
    }

    /// Verifies that `trustPath` (the leaf first) chains to `anchors` at `time`, answering from a
    /// chain verified before when it is the same chain against the same anchors and `time` lies
    /// within the validity of every certificate it went through.
    ///
    /// - Throws: what ``X509Certificate/verifyChain(leaf:intermediates:trustAnchors:at:)`` throws.
    func verify(
        _ trustPath: TrustPath, anchors: [X509Certificate], from anchorSet: AnchorSet, at time: Date
    ) throws(WebAuthnError) {
        guard let leaf = trustPath.first else {
            throw WebAuthnError(.untrustedAttestationRoot, "no attestation certificate to chain")
        }
        let store = try store(for: anchorSet, anchors)
        let key = ChainKey(anchors: anchorSet, digest: trustPath.digest)
        let instant = Date(timeIntervalSince1970: TimeInterval(X509TrustStore.checkTime(time)))
        if let validity = chains.withLock({ $0[key] }), validity.contains(instant) {
            return
        }
        let validity = try store.verify(leaf: leaf, intermediates: Array(trustPath.dropFirst()), at: time)
        chains.withLock { $0.insert(validity, for: key) }
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
}
