import Testing

@testable import WebAuthn

/// Public keys imported once serve every later verification with the same key; a key OpenSSL
/// refuses is refused every time, never kept; the table holds at most its capacity. A credential
/// record's COSE_Key bytes are decoded and prepared once, and verify as the decoded key does.
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

    @Test(arguments: [COSEAlgorithm.es256, .es384, .es512, .eddsa, .rs256, .ps256])
    func aRecordsKeyBytesVerifyAsTheDecodedKey(algorithm: COSEAlgorithm) throws {
        let table = ImportedPublicKeys(capacity: 2)
        let key = try SigningKey.generateForTesting(algorithm)
        let authenticatorData = SecureRandom.bytes(37)
        let clientDataHash = SecureRandom.bytes(32)
        let signature = try key.signature(for: authenticatorData + clientDataHash)
        for _ in 0..<2 {
            let prepared = try table.prepared(encoded: key.publicKey.bytes)
            #expect(try prepared.isValidSignature(signature, for: authenticatorData, followedBy: clientDataHash))
            #expect(try prepared.isValidSignature(signature, for: authenticatorData + clientDataHash, followedBy: []))
            #expect(try !prepared.isValidSignature(signature, for: clientDataHash, followedBy: authenticatorData))
            #expect(try !prepared.isValidSignature([], for: authenticatorData, followedBy: clientDataHash))
            #expect(try !prepared.isValidSignature([0x30, 0x00], for: authenticatorData, followedBy: clientDataHash))
        }
    }

    @Test func recordBytesThatAreNoKeyAreRefusedEveryTime() throws {
        let table = ImportedPublicKeys(capacity: 2)
        let bare = try COSEKey(checking: nil, SigningKey.generate(.es256).publicKey.parameters)
        let noKeyType = CBOR.map([3: CBOR(COSEAlgorithm.es256.rawValue)]).encoded()
        for _ in 0..<2 {
            #expect(throws: WebAuthnError(.malformedCOSEKey, "")) { try table.prepared(encoded: noKeyType) }
            #expect(throws: WebAuthnError(.unsupportedAlgorithm, "")) { try table.prepared(encoded: bare.bytes) }
        }
    }

    /// Verifications at once with one prepared key, valid and not, each on a context of its own
    /// (taken from the key's idle ones or made): every answer is right.
    @Test func manyVerificationsAtOnceWithOneKey() async throws {
        let key = try SigningKey.generate(.es256)
        let message = SecureRandom.bytes(69)
        let signature = try key.signature(for: message)
        let prepared = try PreparedPublicKey(key.publicKey)
        let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<32 {
                group.addTask {
                    var right = true
                    for round in 0..<20 {
                        let valid = (task + round) % 2 == 0
                        let answer = try prepared.isValidSignature(
                            valid ? signature : Array(signature.dropLast()), for: message)
                        right = right && answer == valid
                    }
                    return right
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.count == 32 && answers.allSatisfy { $0 })
    }
}
