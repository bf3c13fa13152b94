import FoundationEssentials

/// An attestation trust path (WebAuthn L3 §7.1 step 22: the certificates of `x5c`, leaf first),
/// with the digest that names it in ``AttestationTrust``'s tables, computed once per registration.
///
/// The digest is SHA-256 over each certificate's length (4 bytes, big-endian) and DER, in order,
/// so any other certificate or order is another path. A collection of its certificates, so a
/// format's verifier reads `path[0]` and `path.count` as it would an array.
struct TrustPath: RandomAccessCollection, Sendable {
    /// The certificates, leaf first.
    let certificates: [X509Certificate]
    /// SHA-256 over each DER's length and bytes, in order (``digest(_:)``); empty for an empty path.
    let digest: [UInt8]

    /// No certificates: self and `none` attestation.
    static let empty = TrustPath(certificates: [], digest: [])

    /// A path whose certificates were parsed elsewhere (a SafetyNet JWS header's `x5c`).
    init(_ certificates: [X509Certificate]) {
        self.init(certificates: certificates, digest: Self.digest(certificates.map(\.derBytes)))
    }

    /// A path with the digest of its DER encodings, as ``digest(_:)`` computed it.
    init(certificates: [X509Certificate], digest: [UInt8]) {
        self.certificates = certificates
        self.digest = digest
    }

    var startIndex: Int { certificates.startIndex }
    var endIndex: Int { certificates.endIndex }

    subscript(position: Int) -> X509Certificate {
        certificates[position]
    }

    /// SHA-256 over each DER's length (4 bytes, big-endian) and bytes, in order.
    static func digest(_ ders: [[UInt8]]) -> [UInt8] {
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
