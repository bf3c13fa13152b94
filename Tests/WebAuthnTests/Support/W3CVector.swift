import TestSupport
import Testing

/// A vector file of `Vectors/w3c/` (W3C WebAuthn L3 "Test Vectors"); see `Vectors/README.md`.
struct W3CVector: Decodable, CustomTestStringConvertible {
    struct Registration: Decodable {
        struct Inputs: Decodable {
            let rp_id: String
            let origin: String
            let challenge_hex: HexBytes
            let credential_id_hex: HexBytes
            let aaguid_hex: HexBytes?
            let flags_hex: HexBytes
            let signCount: UInt32
            let credential_private_key_hex: HexBytes?
        }
        struct Expected: Decodable {
            let clientDataJSON_hex: HexBytes
            let attestationObject_hex: HexBytes
            let authenticatorData_hex: HexBytes
            let credentialPublicKey_cose_hex: HexBytes
        }
        let inputs: Inputs
        let expected: Expected
    }

    struct Authentication: Decodable {
        struct Inputs: Decodable {
            let rp_id: String
            let origin: String
            let challenge_hex: HexBytes
            let credential_id_hex: HexBytes
            let flags_hex: HexBytes
            let signCount: UInt32
        }
        struct Expected: Decodable {
            let authenticatorData_hex: HexBytes
            let clientDataJSON_hex: HexBytes
            let signature_hex: HexBytes
        }
        let inputs: Inputs
        let expected: Expected
    }

    let id: String
    let attestation_format: String
    let registration: Registration
    let authentication: Authentication?

    var testDescription: String { id }
}

/// `Vectors/w3c/attestation-root-cert.json`.
struct W3CAttestationRoot: Decodable {
    struct Derived: Decodable {
        let attestation_ca_cert_pem: String
    }
    let derived: Derived
}
