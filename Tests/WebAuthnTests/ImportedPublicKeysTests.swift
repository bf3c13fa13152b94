import Testing

@testable import WebAuthn

/// Public keys imported once serve every later verification with the same key; a key OpenSSL
/// refuses is refused every time, never kept; the table holds at most its capacity.
@Suite struct ImportedPublicKeysTests {
    @Test func aKeyIsImportedOnceAndVerifiesAsBefore() throws {
        let table = ImportedPublicKeys(capacity: 2)
        let key = try SigningKey.generate(.es256)
        #expect(try table.key(key.publicKey) === table.key(key.publicKey))
        let message = SecureRandom.bytes(69)
        let signature = try key.signature(for: message)
        for _ in 0..<3 {
            #expect(try PreparedPublicKey(key.publicKey).isValidSignature(signature, for: message))
            #expect(try !PreparedPublicKey(key.publicKey).isValidSignature(signature, for: message + [0]))
        }
    }

    @Test func aPointOffTheCurveIsRefusedEveryTime() throws {
        let table = ImportedPublicKeys(capacity: 2)
        guard case .ec2(let curve, let x, var y) = try SigningKey.generate(.es256).publicKey.parameters else {
            Issue.record("not an EC2 key")
            return
        }
        y[31] ^= 1
        let offCurve = try COSEKey(checking: .es256, .ec2(curve: curve, x: x, y: y))
        for _ in 0..<2 {
            #expect(throws: WebAuthnError(.invalidKey, "")) { try table.key(offCurve) }
        }
    }

    @Test func theOldestKeyLeavesFirst() throws {
        let table = ImportedPublicKeys(capacity: 2)
        let keys = try (0..<3).map { _ in try SigningKey.generate(.eddsa).publicKey }
        let first = try table.key(keys[0])
        _ = try table.key(keys[1])
        _ = try table.key(keys[2])  // evicts keys[0]
        #expect(try table.key(keys[0]) !== first)
        let message = SecureRandom.bytes(32)
        #expect(try !PreparedPublicKey(keys[0]).isValidSignature(SecureRandom.bytes(64), for: message))
    }
}
