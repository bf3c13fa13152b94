/// A `packed` attestation statement (WebAuthn L3 §8.2).
///
/// ```
/// packedStmtFormat = { alg: COSEAlgorithmIdentifier, sig: bytes, x5c: [ attestnCert: bytes, * (caCert: bytes) ] }
///                  / { alg: COSEAlgorithmIdentifier, sig: bytes }          ; self attestation
/// ```
public struct PackedAttestationStatement: Sendable, Hashable {
    /// The algorithm of `sig` (`alg`); for self attestation, the credential's own algorithm.
    public let algorithm: Int
    /// The attestation signature over `authenticatorData ‖ clientDataHash` (`sig`).
    public let signature: [UInt8]
    /// The attestation certificate and its chain, leaf first (`x5c`); empty for self attestation.
    public let certificates: [[UInt8]]

    /// Builds a statement.
    public init(algorithm: COSEAlgorithm, signature: [UInt8], certificates: [[UInt8]] = []) {
        self.algorithm = algorithm.rawValue
        self.signature = signature
        self.certificates = certificates
    }

    /// Reads a statement from its CBOR map.
    ///
    /// - Throws: `WebAuthnError.Code.invalidAttestationStatement` for a missing or mistyped member.
    public init(cbor: CBOR) throws(WebAuthnError) {
        guard let alg = cbor["alg"]?.intValue else {
            throw WebAuthnError(.invalidAttestationStatement, "packed attStmt has no integer alg")
        }
        guard let sig = cbor["sig"]?.bytesValue else {
            throw WebAuthnError(.invalidAttestationStatement, "packed attStmt has no byte string sig")
        }
        var certificates: [[UInt8]] = []
        if let x5c = cbor["x5c"] {
            guard let array = x5c.arrayValue, !array.isEmpty else {
                throw WebAuthnError(.invalidAttestationStatement, "packed attStmt x5c is not a non-empty array")
            }
            for element in array {
                guard let der = element.bytesValue else {
                    throw WebAuthnError(.invalidAttestationStatement, "packed attStmt x5c holds a non-bytes element")
                }
                certificates.append(der)
            }
        }
        if cbor["ecdaaKeyId"] != nil {
            throw WebAuthnError(.invalidAttestationStatement, "ECDAA attestation was removed in WebAuthn L2")
        }
        self.algorithm = alg
        self.signature = sig
        self.certificates = certificates
    }

    /// The statement as a CBOR map.
    public var cbor: CBOR {
        var map: [CBOR: CBOR] = ["alg": CBOR(algorithm), "sig": .bytes(signature)]
        if !certificates.isEmpty {
            map["x5c"] = .array(certificates.map(CBOR.bytes))
        }
        return .map(map)
    }
}
