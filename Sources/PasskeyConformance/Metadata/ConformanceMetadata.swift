import Crypto
public import FoundationEssentials
public import WebAuthn

/// The runner's FIDO metadata: a signed MDS3 BLOB (FIDO MDS 3.0 §3.1) listing every
/// ``ConformanceAuthenticator`` but ``ConformanceAuthenticator/unlisted``, each with its status and
/// ``ConformancePKI/root`` as its attestation root, and the broken BLOBs a relying party must refuse.
///
/// The BLOB is a compact JWS (RFC 7515 §7.1, §3.1.7 of the MDS) signed ES256 by the PKI's metadata
/// signer, its chain in the header, leaf first:
///
/// ```
/// BASE64URL({"alg":"ES256","typ":"JWT","x5c":[BASE64(leaf DER), …]}) '.' BASE64URL(payload) '.' BASE64URL(r ‖ s)
/// ```
///
/// The statuses derive from the serial number and `nextUpdate` alone, and the root's key and name
/// from the PKI's seed, so a BLOB served by one process verifies to the root of another with the
/// same seed (the certificates' signatures, and so the bytes, may differ). `MetadataBLOB` reads
/// it back:
///
/// ```swift
/// let pki = try ConformancePKI()
/// let metadata = ConformanceMetadata(pki: pki, nextUpdate: Date() + 3 * 86_400)
/// let blob = try MetadataBLOB(jwt: metadata.blob(), root: pki.root)
/// ```
public struct ConformanceMetadata: Sendable {
    /// A BLOB that verifies, or one broken in one way.
    public enum Variant: String, Sendable, CaseIterable {
        /// Signed by the trusted signer, valid now.
        case good
        /// The good BLOB with one bit of its signature flipped: the JWS does not verify (RFC 7515 §5.2 step 8).
        case badSignature = "bad-signature"
        /// Signed by a signer whose certificate has expired.
        case expired
        /// Signed under a root nobody was given.
        case wrongChain = "wrong-chain"
    }

    /// The date every status report of the BLOB takes effect on: models are certified, then
    /// compromised (the latest report rules, §3.1.3).
    static let certifiedOn = "2025-01-01"
    static let changedOn = "2025-06-01"

    public let pki: ConformancePKI
    /// `no`: the BLOB's serial number (§3.1.6).
    public let number: Int
    /// `nextUpdate`: when a reader should fetch the next BLOB (§3.1.6), written as its UTC date.
    public let nextUpdate: Date

    /// The metadata of `pki`'s authenticators.
    ///
    /// - Parameters:
    ///   - pki: the PKI whose root the entries name and whose metadata signer signs.
    ///   - number: the BLOB's serial number.
    ///   - nextUpdate: when readers should fetch again; a few days ahead for a server.
    public init(pki: ConformancePKI, number: Int = 1, nextUpdate: Date) {
        self.pki = pki
        self.number = number
        self.nextUpdate = nextUpdate
    }

    /// The BLOB, or one of its broken variants.
    ///
    /// - Parameter variant: which BLOB.
    /// - Returns: the compact JWS, ASCII.
    /// - Throws: `WebAuthnError` when the PKI cannot make its signer or the key cannot sign.
    public func blob(_ variant: Variant = .good) throws(WebAuthnError) -> [UInt8] {
        let signer: (key: SigningKey, chain: [[UInt8]])
        switch variant {
        case .good, .badSignature: signer = try pki.metadataSigner()
        case .expired: signer = try pki.metadataSigner(expired: true)
        case .wrongChain: signer = try pki.metadataSigner(trusted: false)
        }
        let header = Header(x5c: signer.chain.map { Data($0).base64EncodedString() })
        let signingInput = Base64URL.encode(try Self.json(header)) + "." + Base64URL.encode(try Self.json(payload))
        // ES256 in a JWS is r ‖ s (RFC 7518 §3.4); the key signs DER (WebAuthn's form).
        let der = try signer.key.deterministicSignature(for: Array(signingInput.utf8))
        var signature: [UInt8]
        do {
            signature = Array(try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation)
        } catch {
            throw WebAuthnError(.cryptoFailure, "the metadata signer's signature is not ECDSA P-256: \(error)")
        }
        if variant == .badSignature, let last = signature.indices.last {
            signature[last] ^= 0x01
        }
        return Array((signingInput + "." + Base64URL.encode(signature)).utf8)
    }

    /// The payload: one entry per listed model, in ``ConformanceAuthenticator/allCases`` order.
    var payload: MetadataBLOBPayload {
        let legalHeader = "Test metadata of the SoftPasskey conformance runner; not the FIDO Alliance's."
        let root = Data(pki.root.derBytes).base64EncodedString()
        let entries = ConformanceAuthenticator.allCases.compactMap { model -> MetadataBLOBPayload.Entry? in
            guard let status = model.status else { return nil }
            var reports = [MetadataBLOBPayload.StatusReport(status: "FIDO_CERTIFIED", effectiveDate: Self.certifiedOn)]
            if status != .fidoCertified {
                reports.append(.init(status: status.rawValue, effectiveDate: Self.changedOn))
            }
            return MetadataBLOBPayload.Entry(
                aaguid: model.aaguid.description,
                metadataStatement: .init(
                    legalHeader: legalHeader, description: model.description, aaguid: model.aaguid.description,
                    attestationRootCertificates: [root]),
                statusReports: reports, timeOfLastStatusChange: reports[reports.count - 1].effectiveDate)
        }
        return MetadataBLOBPayload(
            legalHeader: legalHeader, no: number, nextUpdate: Self.day(nextUpdate), entries: entries)
    }

    /// `date`'s UTC calendar day, `YYYY-MM-DD`: how MDS writes dates (§3.1.6 `nextUpdate`).
    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }

    /// The JWS protected header (RFC 7515 §4.1): `x5c` is standard base64 DER, leaf first (§4.1.6).
    private struct Header: Encodable {
        var alg = "ES256"
        var typ = "JWT"
        let x5c: [String]
    }

    /// Compact JSON, keys sorted, `/` unescaped.
    private static func json(_ value: some Encodable) throws(WebAuthnError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            throw WebAuthnError(.cryptoFailure, "the metadata BLOB does not encode: \(error)")
        }
    }
}
