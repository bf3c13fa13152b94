public import FoundationEssentials

/// A FIDO Metadata Service v3 BLOB (FIDO MDS 3.0 §3.1.6–§3.1.7), read from bytes the caller
/// fetched: its signature and certificate chain verified to a root the caller trusts, its entries
/// by AAGUID. A ``RelyingParty`` given one takes an authenticator's trust anchors from its entry
/// and refuses authenticators whose status says they are compromised (WebAuthn L3 §7.1 step 23).
///
/// ```swift
/// let metadata = try MetadataBLOB(jwt: blobBytes, root: fidoRoot)
/// let rp = RelyingParty(ids: ["example.org"], metadata: metadata)
/// ```
public struct MetadataBLOB: Sendable {
    /// `no`: the BLOB's serial number.
    public let number: Int
    /// `nextUpdate`, as written (`YYYY-MM-DD`); informative, the certificates decide validity.
    public let nextUpdate: String
    /// The entries that name an AAGUID (FIDO2 authenticators), by AAGUID.
    public let entries: [AAGUID: MetadataEntry]

    /// Verifies and reads a BLOB.
    ///
    /// - Parameters:
    ///   - jwt: the BLOB, a compact JWS.
    ///   - root: the root the BLOB's `x5c` chain must reach (the FIDO Alliance's, or a test's).
    ///   - time: when every certificate of the chain must be valid.
    /// - Throws: `malformed-metadata` for a BLOB that does not parse; `untrusted-metadata` when its
    ///   signature does not verify or its chain does not reach `root` at `time`.
    public init(jwt: [UInt8], root: X509Certificate, at time: Date = Date()) throws(WebAuthnError) {
        let text = jwt.last == UInt8(ascii: "\n") ? Array(jwt.dropLast()) : jwt
        let jws = try CompactJWS(text, code: .malformedMetadata)
        guard let leaf = jws.certificates.first else {
            throw WebAuthnError(.malformedMetadata, "the metadata BLOB header has no x5c")
        }
        guard try jws.isSignedByLeaf() else {
            throw WebAuthnError(.untrustedMetadata, "the metadata BLOB signature does not verify with x5c[0]")
        }
        do {
            try X509Certificate.verifyChain(
                leaf: leaf, intermediates: Array(jws.certificates.dropFirst()), trustAnchors: [root], at: time)
        } catch {
            throw error.recoded(.untrustedMetadata, "the metadata BLOB signer")
        }
        let payload: Payload
        do {
            payload = try JSONDecoder().decode(Payload.self, from: Data(jws.payload))
        } catch {
            throw WebAuthnError(.malformedMetadata, "the metadata BLOB payload: \(error)")
        }
        number = payload.no
        nextUpdate = payload.nextUpdate
        var entries: [AAGUID: MetadataEntry] = [:]
        for entry in payload.entries {
            guard let text = entry.aaguid else { continue }  // U2F and UAF entries name keys, not AAGUIDs
            let aaguid = try AAGUID(uuidString: text)
            var roots: [X509Certificate] = []
            for base64 in entry.metadataStatement?.attestationRootCertificates ?? [] {
                guard let der = Data(base64Encoded: base64) else {
                    throw WebAuthnError(.malformedMetadata, "an attestation root of \(aaguid) is not base64")
                }
                roots.append(try X509Certificate(derEncoded: Array(der)))
            }
            entries[aaguid] = MetadataEntry(
                aaguid: aaguid, description: entry.metadataStatement?.description ?? "",
                attestationRootCertificates: roots,
                statusReports: entry.statusReports.map {
                    MetadataEntry.StatusReport(
                        status: AuthenticatorStatus(rawValue: $0.status), effectiveDate: $0.effectiveDate)
                })
        }
        self.entries = entries
    }

    /// The entry of an authenticator model, if the BLOB lists it.
    public func entry(for aaguid: AAGUID) -> MetadataEntry? {
        entries[aaguid]
    }

    /// The payload members this library reads (§3.1.6).
    private struct Payload: Decodable {
        struct Entry: Decodable {
            struct Statement: Decodable {
                let description: String?
                let attestationRootCertificates: [String]?
            }
            struct Report: Decodable {
                let status: String
                let effectiveDate: String?
            }
            let aaguid: String?
            let metadataStatement: Statement?
            let statusReports: [Report]
        }
        let no: Int
        let nextUpdate: String
        let entries: [Entry]
    }
}
