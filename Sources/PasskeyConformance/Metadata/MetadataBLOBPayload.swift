/// A metadata BLOB's payload as FIDO MDS 3.0 §3.1.6 writes it: what ``ConformanceMetadata`` signs.
///
/// ```
/// { "legalHeader": …, "no": 1, "nextUpdate": "YYYY-MM-DD",
///   "entries": [ { "aaguid": …, "metadataStatement": {…},
///                  "statusReports": [ { "status": …, "effectiveDate": "YYYY-MM-DD" } ],
///                  "timeOfLastStatusChange": "YYYY-MM-DD" } ] }
/// ```
///
/// The members are those §3.1.6 and the Metadata Statement format (FIDO MDS 3.0 Statement §4)
/// require, so that python-fido2's `fido2.mds3` and every other MDS3 reader accept the BLOB.
struct MetadataBLOBPayload: Encodable {
    /// `MetadataBLOBPayloadEntry` (§3.1.1).
    struct Entry: Encodable {
        let aaguid: String
        let metadataStatement: Statement
        let statusReports: [StatusReport]
        let timeOfLastStatusChange: String
    }

    /// `StatusReport` (§3.1.3).
    struct StatusReport: Encodable {
        let status: String
        let effectiveDate: String
    }

    /// A `MetadataStatement` (Metadata Statement §4) of a software FIDO2 authenticator: ES256 keys,
    /// packed basic attestation under one root, user presence and a PIN, keys kept in software.
    struct Statement: Encodable {
        /// `Version` (UAF Protocol §3.1.1), of `upv`.
        struct Version: Encodable {
            let major: Int
            let minor: Int
        }

        /// `VerificationMethodDescriptor` (Metadata Statement §3.1.1).
        struct VerificationMethod: Encodable {
            let userVerificationMethod: String
        }

        let legalHeader: String
        let description: String
        let aaguid: String
        let protocolFamily = "fido2"
        let schema = 3
        let authenticatorVersion = 1
        /// CTAP 2.0 and 2.1.
        let upv = [Version(major: 1, minor: 0), Version(major: 1, minor: 1)]
        let authenticationAlgorithms = ["secp256r1_ecdsa_sha256_raw"]
        let publicKeyAlgAndEncodings = ["cose"]
        let attestationTypes = ["basic_full"]
        /// Either presence alone or a PIN: two alternatives of one method each.
        let userVerificationDetails = [
            [VerificationMethod(userVerificationMethod: "presence_internal")],
            [VerificationMethod(userVerificationMethod: "passcode_internal")],
        ]
        let keyProtection = ["software"]
        let matcherProtection = ["software"]
        let attachmentHint = ["internal"]
        let tcDisplay: [String] = []
        /// Standard base64 of DER (Metadata Statement §4), not base64url.
        let attestationRootCertificates: [String]
    }

    let legalHeader: String
    let no: Int
    let nextUpdate: String
    let entries: [Entry]
}
