import Foundation
import TestSupport
import Testing
import WebAuthn

/// Hex from a vector as bytes (the test fails on bad hex rather than crashing).
func hex(_ text: String) throws -> [UInt8] {
    try Hex.decode(text)
}

extension W3CVector {
    /// The credential public key, built from `credentialPublicKey_params` with
    /// `COSEKey(checking:_:)` (the CBOR codec is tested elsewhere).
    func credentialPublicKey() throws -> COSEKey {
        let parameters = registration.derived.credentialPublicKey_params
        let algorithm = try #require(COSEAlgorithm(rawValue: parameters.alg))
        switch (parameters.kty, parameters.crvOrN) {
        case (2, .int(let crv)):
            let curve = try #require(COSECurve(rawValue: crv))
            return try COSEKey(
                checking: algorithm, .ec2(curve: curve, x: parameters.xOrE.bytes, y: try #require(parameters.y).bytes))
        case (1, .int(let crv)):
            return try COSEKey(
                checking: algorithm, .okp(curve: try #require(COSECurve(rawValue: crv)), x: parameters.xOrE.bytes))
        case (3, .hex(let n)):
            return try COSEKey(checking: algorithm, .rsa(n: n.bytes, e: parameters.xOrE.bytes))
        default:
            Issue.record("unexpected key parameters")
            throw WebAuthnError(.malformedCOSEKey, "unexpected key parameters")
        }
    }
}

/// A P-256 key of `Vectors/cose/`: RFC 9052 Appendix C.7's, named by its `kid`, or a COSE_Sign1
/// example's, whose private scalar goes unused.
struct COSEKeyVector: Decodable, Sendable, CustomTestStringConvertible {
    let kid_text: String?
    let x_hex: String
    let y_hex: String
    let d_hex: String

    var testDescription: String { kid_text ?? x_hex }
}

/// `Vectors/cose/rfc9052-c7-keys.json`.
struct COSEKeySet: Decodable {
    let keys: [COSEKeyVector]
}

/// `Vectors/cose/cose-sign1-es256-examples.json`: ES256 signatures over COSE_Sign1 `ToBeSigned`.
struct COSESign1Examples: Decodable {
    struct Example: Decodable, Sendable, CustomTestStringConvertible {
        let title: String
        let key: COSEKeyVector
        let to_be_signed_hex: String
        let signature_raw_r_s_hex: String
        let derived_signature_der_hex: String

        var testDescription: String { title }
    }
    let examples: [Example]
}

/// Flips one bit of a byte string.
func flippingBit(_ bytes: [UInt8], at index: Int = 0) -> [UInt8] {
    var bytes = bytes
    bytes[index] ^= 0x01
    return bytes
}
