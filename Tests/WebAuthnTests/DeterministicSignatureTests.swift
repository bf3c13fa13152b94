import TestSupport
import Testing

@testable import WebAuthn

/// Deterministic ECDSA (RFC 6979) as seeded mode signs with: the RFC's own vectors for the nonce
/// and the signature, the W3C vectors' assertion signatures byte for byte, and OpenSSL's verdict.
@Suite struct DeterministicSignatureTests {
    /// RFC 6979 Appendix A.2.5: NIST P-256, SHA-256.
    struct P256Vector: Sendable, CustomTestStringConvertible {
        let message: String
        let k: String
        let r: String
        let s: String
        var testDescription: String { "\"\(message)\"" }
    }

    static let privateKey = "C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721"
    static let publicX = "60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6"
    static let publicY = "7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299"
    static let order = "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551"
    static let vectors = [
        P256Vector(
            message: "sample", k: "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
            r: "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
            s: "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"),
        P256Vector(
            message: "test", k: "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
            r: "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
            s: "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"),
    ]

    @Test(arguments: vectors)
    func theNonceIsRFC6979s(_ vector: P256Vector) throws {
        let nonces = DeterministicNonces(
            privateKey: try Hex.decode(Self.privateKey), digest: SHA256Digest.hash(Array(vector.message.utf8)),
            order: try Hex.decode(Self.order))
        #expect(nonces.next() == (try Hex.decode(vector.k)))
    }

    /// RFC 6979 Appendix A.1: a 163-bit order, so `bits2int` drops bits that are not whole bytes.
    @Test func theNonceOfTheDetailedExampleWithAnOddOrderLength() throws {
        let nonces = DeterministicNonces(
            privateKey: try Hex.decode("009A4D6792295A7F730FC3F2B49CBC0F62E862272F"),
            digest: SHA256Digest.hash(Array("sample".utf8)),
            order: try Hex.decode("04000000000000000000020108A2E0CC0D99F8A5EF"))
        #expect(nonces.next() == (try Hex.decode("023AF4074C90A02B3FE61D286D5C87F425E6BDD81B")))
        #expect(nonces.next() != (try Hex.decode("023AF4074C90A02B3FE61D286D5C87F425E6BDD81B")))
    }

    @Test(arguments: vectors)
    func theSignatureIsRFC6979sAndOpenSSLAcceptsIt(_ vector: P256Vector) throws {
        let key = try SigningKey(rawRepresentation: Hex.decode(Self.privateKey), algorithm: .es256)
        #expect(
            key.publicKey.parameters
                == .ec2(curve: .p256, x: try Hex.decode(Self.publicX), y: try Hex.decode(Self.publicY)))
        let message = Array(vector.message.utf8)
        let signature = try key.deterministicSignature(for: message)
        #expect(signature == Self.der(r: try Hex.decode(vector.r), s: try Hex.decode(vector.s)))
        #expect(try key.deterministicSignature(for: message) == signature)
        #expect(try key.publicKey.isValidSignature(signature, for: message))
        #expect(try !key.publicKey.isValidSignature(signature, for: message + [0]))
    }

    /// The ordinary signature draws its nonce at random, so the equality above is not a given.
    @Test func theOrdinarySignatureDiffersFromRunToRun() throws {
        let key = try SigningKey(rawRepresentation: Hex.decode(Self.privateKey), algorithm: .es256)
        let message = Array("sample".utf8)
        #expect(try key.signature(for: message) != key.signature(for: message))
    }

    /// The W3C L3 vectors' assertion signatures were made with RFC 6979: every ES256 one comes out
    /// byte for byte from the vector's private key and signed data.
    @Test(arguments: W3CVectorTests.vectors.filter { $0.id.hasSuffix("es256") || $0.id.contains("-es256-") })
    func theW3CAssertionSignaturesComeOutByteForByte(_ vector: W3CVector) throws {
        let authentication = try #require(vector.authentication)
        let privateKey = try #require(vector.registration.inputs.credential_private_key_hex)
        let key = try SigningKey(rawRepresentation: privateKey.bytes, algorithm: .es256)
        let expected = authentication.expected
        let signed = expected.authenticatorData_hex.bytes + SHA256Digest.hash(expected.clientDataJSON_hex.bytes)
        #expect(try key.deterministicSignature(for: signed) == expected.signature_hex.bytes)
    }

    @Test func eddsaIsDeterministicAlreadyAndPSSIsRefused() throws {
        let message = Array("sample".utf8)
        let eddsa = try SigningKey.generate(.eddsa)
        #expect(try eddsa.deterministicSignature(for: message) == eddsa.signature(for: message))
        let pss = try SigningKey.generateForTesting(.ps256)
        #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try pss.deterministicSignature(for: message) }
    }

    /// DER `Ecdsa-Sig-Value` (SEC 1 §C.5) of two 32-byte big-endian integers.
    static func der(r: [UInt8], s: [UInt8]) -> [UInt8] {
        func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.first.map({ $0 & 0x80 != 0 }) ?? true {
                value.insert(0, at: 0)
            }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(r) + integer(s)
        return [0x30, UInt8(body.count)] + body
    }
}
