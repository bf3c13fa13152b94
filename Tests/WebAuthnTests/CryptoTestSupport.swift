import Foundation
import Testing
import WebAuthn

/// Hex from a vector as bytes (the test fails on bad hex rather than crashing).
func hex(_ text: String) throws -> [UInt8] {
    try Hex.decode(text)
}

/// The parts of a W3C WebAuthn L3 test vector (`Vectors/w3c/*.json`) the crypto tests use: the
/// key parameters and signed data as the extractor printed them.
struct W3CKeyVector: Decodable {
    let registration: Registration
    let authentication: Authentication

    struct Registration: Decodable {
        let inputs: Inputs
        let derived: Derived
    }

    struct Inputs: Decodable {
        let aaguid_hex: String
        let credential_private_key_hex: String?
    }

    struct Derived: Decodable {
        let credentialPublicKey_params: KeyParameters
        let attStmt: AttestationStatement?
    }

    struct AttestationStatement: Decodable {
        let x5c: [String]?
    }

    struct Authentication: Decodable {
        let expected: Expected
        let derived: AuthenticationDerived
    }

    struct Expected: Decodable {
        let signature_hex: String
    }

    struct AuthenticationDerived: Decodable {
        let signed_data_hex: String
    }

    /// `credentialPublicKey_params`: COSE labels with the extractor's notes in the key names.
    struct KeyParameters: Decodable {
        let kty: Int
        let alg: Int
        let crvOrN: IntOrHex
        let xOrE: String
        let y: String?

        enum CodingKeys: String, CodingKey {
            case kty = "1 (kty)"
            case alg = "3 (alg)"
            case crvOrN = "-1 (crv_or_n)"
            case xOrE = "-2 (x_or_e)"
            case y = "-3 (y)"
        }
    }

    enum IntOrHex: Decodable {
        case int(Int)
        case hex(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else {
                self = .hex(try container.decode(String.self))
            }
        }
    }

    /// The credential public key, built with `COSEKey(checking:_:)` (the CBOR codec is tested
    /// elsewhere).
    func credentialPublicKey() throws -> COSEKey {
        let parameters = registration.derived.credentialPublicKey_params
        let algorithm = try #require(COSEAlgorithm(rawValue: parameters.alg))
        switch (parameters.kty, parameters.crvOrN) {
        case (2, .int(let crv)):
            let curve = try #require(COSECurve(rawValue: crv))
            return try COSEKey(
                checking: algorithm, .ec2(curve: curve, x: hex(parameters.xOrE), y: hex(try #require(parameters.y))))
        case (1, .int(let crv)):
            return try COSEKey(
                checking: algorithm, .okp(curve: try #require(COSECurve(rawValue: crv)), x: hex(parameters.xOrE)))
        case (3, .hex(let n)):
            return try COSEKey(checking: algorithm, .rsa(n: hex(n), e: hex(parameters.xOrE)))
        default:
            Issue.record("unexpected key parameters")
            throw WebAuthnError(.malformedCOSEKey, "unexpected key parameters")
        }
    }
}

/// Flips one bit of a byte string.
func flippingBit(_ bytes: [UInt8], at index: Int = 0) -> [UInt8] {
    var bytes = bytes
    bytes[index] ^= 0x01
    return bytes
}
