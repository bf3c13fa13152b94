import TestSupport
import Testing

/// A case of `Vectors/realworld/`: a captured response with the verdict a conforming relying
/// party must reach; see `Vectors/README.md`.
struct RealWorldVector: Decodable, CustomTestStringConvertible {
    struct Failure: Decodable {
        let reason: String
    }
    struct Algorithm: Decodable {
        let cose_alg: Int
    }
    struct Expectations: Decodable {
        let expected_rp_id: String
        let expected_origin: OneOrMany
        let expected_challenge_b64url: String
        let require_user_verification: Bool
        let require_user_presence: Bool?
        let supported_pub_key_algs: [Int]?
    }
    struct StoredCredential: Decodable {
        let credential_id_b64url: B64Bytes
        let public_key_cose_b64url: B64Bytes
        let sign_count: UInt32
    }
    struct TrustAnchors: Decodable {
        let mode: String
        let by_fmt: [String: [String]]?
    }
    /// What the extractor read from the response: the registration's AAGUID.
    struct Derived: Decodable {
        struct AuthenticatorData: Decodable {
            let aaguid_hex: HexBytes?
        }
        let authenticatorData: AuthenticatorData?
    }
    struct Response: Decodable {
        struct Inner: Decodable {
            let clientDataJSON: B64Bytes
            let attestationObject: B64Bytes?
            let authenticatorData: B64Bytes?
            let signature: B64Bytes?
            let userHandle: String?
        }
        let rawId: B64Bytes
        let response: Inner
    }

    let id: String
    let ceremony: String
    let verdict: String
    let failure: Failure?
    let attestation_format: String?
    let algorithm: Algorithm?
    let rp: Expectations
    let stored_credential: StoredCredential?
    let verification_time: String?
    let trust_anchors: TrustAnchors?
    let response: Response
    let derived: Derived

    var testDescription: String { id }

    /// The vector's failure code: the first word of `failure.reason`
    /// (`up-flag-missing (signature also no longer valid)` → `up-flag-missing`).
    var expectedCode: String? {
        failure.map { String($0.reason.prefix(while: { $0 != " " })) }
    }
}
