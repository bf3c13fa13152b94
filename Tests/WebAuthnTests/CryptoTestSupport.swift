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
        let labels = registration.derived.credentialPublicKey_params
        let algorithm = try #require(labels.integers[3].flatMap { COSEAlgorithm(rawValue: $0) })
        let crv = labels.integers[-1].flatMap { COSECurve(rawValue: $0) }
        switch labels.integers[1] {
        case 2:
            return try COSEKey(
                checking: algorithm,
                .ec2(curve: try #require(crv), x: try #require(labels.bytes[-2]), y: try #require(labels.bytes[-3])))
        case 1:
            return try COSEKey(checking: algorithm, .okp(curve: try #require(crv), x: try #require(labels.bytes[-2])))
        case 3:
            return try COSEKey(
                checking: algorithm, .rsa(n: try #require(labels.bytes[-1]), e: try #require(labels.bytes[-2])))
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
