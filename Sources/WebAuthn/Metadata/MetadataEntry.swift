/// What FIDO metadata says about one authenticator model (FIDO MDS 3.0 §3.1.1
/// `MetadataBLOBPayloadEntry`): the roots its attestations chain to and its status history.
public struct MetadataEntry: Sendable {
    /// One status report (§3.1.3), `effectiveDate` as the BLOB writes it (`YYYY-MM-DD`).
    public struct StatusReport: Sendable, Hashable {
        public let status: AuthenticatorStatus
        public let effectiveDate: String?
    }

    public let aaguid: AAGUID
    /// The metadata statement's `description`.
    public let description: String
    /// `metadataStatement.attestationRootCertificates`: the trust anchors of its attestations.
    public let attestationRootCertificates: [X509Certificate]
    public let statusReports: [StatusReport]

    /// The status in force: that of the report with the latest effective date.
    public var status: AuthenticatorStatus? {
        statusReports.enumerated().max { lhs, rhs in
            (lhs.element.effectiveDate ?? "", lhs.offset) < (rhs.element.effectiveDate ?? "", rhs.offset)
        }?.element.status
    }
}
