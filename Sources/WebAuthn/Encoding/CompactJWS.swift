import Crypto
import FoundationEssentials

/// A JSON Web Signature in compact serialization (RFC 7515 §7.1) whose protected header names its
/// signer by certificate chain (`x5c`, §4.1.6): what an `android-safetynet` response (WebAuthn L3
/// §8.5) and a FIDO metadata BLOB (FIDO MDS 3.0 §3.1.7) are.
///
/// The only JWS reader in this module, apart from jwt-kit, which the Auth0 client and the tenant
/// use for every other JWS (DPoP proofs, ID and access tokens): this module depends on nothing
/// above libcrypto, and its JWS are verified differently, by the leaf of an `x5c` chain with the
/// module's own COSE keys (RS/PS/ES 256–512, EdDSA), that chain then checked against attestation
/// or metadata roots.
struct CompactJWS {
    /// The protected header's members this library reads.
    private struct Header: Decodable {
        let alg: String
        let x5c: [String]?
    }

    /// The signature algorithm, as COSE names it.
    let algorithm: COSEAlgorithm
    /// `x5c`, leaf first; empty when the header has none.
    let certificates: [X509Certificate]
    /// The decoded payload.
    let payload: [UInt8]
    /// The JWS signing input, `BASE64URL(header) '.' BASE64URL(payload)` (§5.1 step 8).
    let signingInput: [UInt8]
    /// The signature, as OpenSSL verifies it (ECDSA in DER rather than JWS's `r ‖ s`).
    let signature: [UInt8]

    /// Parses `text`.
    ///
    /// - Throws: `code` for anything that is not a compact JWS with a known `alg` (RFC 7518 §3.1)
    ///   and well-formed `x5c` certificates.
    init(_ text: [UInt8], code: WebAuthnError.Code) throws(WebAuthnError) {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw WebAuthnError(code, "a JWS has three parts, not \(parts.count)") }
        let header: Header
        do {
            let headerBytes = try Base64URL.decode(String(decoding: parts[0], as: UTF8.self))
            header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
            payload = try Base64URL.decode(String(decoding: parts[1], as: UTF8.self))
            signature = try Self.derSignature(
                Base64URL.decode(String(decoding: parts[2], as: UTF8.self)), alg: header.alg, code: code)
        } catch let error as WebAuthnError {
            throw error.recoded(code, "JWS")
        } catch {
            throw WebAuthnError(code, "the JWS header is not JSON with alg: \(error)")
        }
        guard let algorithm = Self.algorithms[header.alg] else {
            throw WebAuthnError(code, "JWS alg \(header.alg) is not supported")
        }
        self.algorithm = algorithm
        var certificates: [X509Certificate] = []
        for text in header.x5c ?? [] {  // RFC 7515 §4.1.6: standard base64 DER, not base64url
            guard let der = Data(base64Encoded: text) else {
                throw WebAuthnError(code, "JWS x5c[\(certificates.count)] is not base64")
            }
            do {
                certificates.append(try X509Certificate(derEncoded: Array(der)))
            } catch {
                throw error.recoded(code, "JWS x5c[\(certificates.count)]")
            }
        }
        self.certificates = certificates
        signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
    }

    /// Whether the leaf certificate's key made the signature (§5.2 step 8).
    func isSignedByLeaf() throws(WebAuthnError) -> Bool {
        guard let leaf = certificates.first else { return false }
        return try leaf.publicKey(algorithm: algorithm).isValidSignature(signature, for: signingInput)
    }

    /// The JWS `alg` values this library verifies (RFC 7518 §3.1, RFC 8037 §3.1).
    private static let algorithms: [String: COSEAlgorithm] = [
        "RS256": .rs256, "RS384": .rs384, "RS512": .rs512, "PS256": .ps256, "PS384": .ps384, "PS512": .ps512,
        "ES256": .es256, "ES384": .es384, "ES512": .es512, "EdDSA": .eddsa,
    ]

    /// An ECDSA signature `r ‖ s` (RFC 7518 §3.4) as DER; other algorithms' signatures unchanged.
    private static func derSignature(_ raw: [UInt8], alg: String, code: WebAuthnError.Code) throws(WebAuthnError)
        -> [UInt8]
    {
        do {
            switch alg {
            case "ES256": return Array(try P256.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation)
            case "ES384": return Array(try P384.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation)
            case "ES512": return Array(try P521.Signing.ECDSASignature(rawRepresentation: raw).derRepresentation)
            default: return raw
            }
        } catch {
            throw WebAuthnError(code, "the JWS \(alg) signature is not r ‖ s of its curve")
        }
    }
}
