import TestSupport
import Testing
import WebAuthn

/// One test per step of WebAuthn L3 §7.2 "Verifying an Authentication Assertion" that a relying
/// party runs on the response: each starts from a valid assertion, breaks exactly that step, and
/// expects exactly its error code. The DocC article "Verification steps" lists them.
@Suite struct AuthenticationStepTests {
    @Test func theBaselinePasses() throws {
        let ceremony = try HandmadeCeremony()
        let record = try ceremony.register().record(userHandle: [1, 2, 3])
        #expect(try ceremony.assert(record: record).signCount == 0)
        #expect(try ceremony.assert(record: record, userHandle: [1, 2, 3], userIdentified: .byResponse).signCount == 0)
    }

    /// Step 3 (with §5.1): a response whose credential `type` is not `public-key` is not a
    /// `PublicKeyCredential`'s, however valid the rest.
    @Test(arguments: ["public-key-x", "", "Public-Key"])
    func step03CredentialType(_ type: String) throws {
        let ceremony = try HandmadeCeremony()
        let record = CredentialRecord(id: ceremony.credentialID, publicKey: ceremony.key.publicKey.bytes)
        var response = try ceremony.assertionJSON(userHandle: nil)
        let relyingParty = RelyingParty(id: "example.org")
        #expect(throws: Never.self) {
            try relyingParty.verifyAuthentication(response, challenge: ceremony.challenge, credential: record)
        }
        response.type = PublicKeyCredentialType(rawValue: type)
        #expect(throws: WebAuthnError(.wrongCredentialType, "")) {
            try relyingParty.verifyAuthentication(response, challenge: ceremony.challenge, credential: record)
        }
    }

    /// Step 5: with `allowCredentials`, the credential is one of them.
    @Test func step05AllowCredentials() throws {
        let ceremony = try HandmadeCeremony()
        #expect(throws: WebAuthnError(.credentialNotAllowed, "")) { try ceremony.assert(allowCredentials: [[9, 9]]) }
        #expect(throws: Never.self) { try ceremony.assert(allowCredentials: [[9, 9], ceremony.credentialID]) }
    }

    /// Step 6: the credential is the record's, and the user handle is its owner's; a user found only
    /// through the response (a discoverable login) needs the user handle.
    @Test func step06IdentifyTheUser() throws {
        let ceremony = try HandmadeCeremony()
        let record = try ceremony.register().record(userHandle: [1, 2, 3])
        var otherRecord = record
        otherRecord.id = [7]
        #expect(throws: WebAuthnError(.credentialNotAllowed, "")) { try ceremony.assert(record: otherRecord) }
        #expect(throws: WebAuthnError(.userHandleMismatch, "")) { try ceremony.assert(record: record, userHandle: [4]) }
        #expect(throws: WebAuthnError(.userHandleMismatch, "")) {
            try ceremony.assert(record: record, userHandle: [4], userIdentified: .byResponse)
        }
        #expect(throws: WebAuthnError(.userHandleMissing, "")) {
            try ceremony.assert(record: record, userIdentified: .byResponse)
        }
        #expect(throws: Never.self) { try ceremony.assert(record: record, userHandle: [1, 2, 3]) }
    }

    /// Steps 8 and 9: client data is UTF-8 JSON with the required members.
    @Test func step08And09ClientData() throws {
        var ceremony = try HandmadeCeremony()
        for bytes in [[0x7B, 0xFF, 0x7D], Array(#"{"type":"webauthn.get","challenge":"AA"}"#.utf8)] {
            ceremony.rawClientData = bytes
            #expect(throws: WebAuthnError(.malformedClientData, "")) { try ceremony.assert() }
        }
    }

    /// Step 10: `C.type` is `webauthn.get`.
    @Test func step10Type() throws {
        try HandmadeAssertion.expect(.wrongClientDataType) { $0.claimedType = .create }
    }

    /// Step 11: `C.challenge` is the base64url encoding of the challenge issued.
    @Test func step11Challenge() throws {
        try HandmadeAssertion.expect(.wrongChallenge) { $0.claimedChallenge = Array($0.challenge.dropLast()) }
    }

    /// Step 12: `C.origin` is an origin the relying party expects.
    @Test func step12Origin() throws {
        try HandmadeAssertion.expect(.wrongOrigin) { $0.origin = "http://example.org" }
    }

    /// Step 13: `C.crossOrigin` true only where the relying party expects cross-origin iframes.
    @Test func step13CrossOrigin() throws {
        try HandmadeAssertion.expect(.crossOriginNotAllowed) { $0.crossOrigin = true }
    }

    /// Step 14: a `C.topOrigin` needs an expected cross-origin iframe (14.1) under an expected
    /// top-level origin (14.2).
    @Test func step14TopOrigin() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.topOrigin = "https://top.example"  // crossOrigin absent: step 13 has nothing to refuse
        #expect(throws: WebAuthnError(.crossOriginNotAllowed, "")) {
            try ceremony.assert(RelyingParty(ids: ["example.org"], topOrigins: ["https://top.example"]))
        }
        ceremony.crossOrigin = true
        #expect(throws: WebAuthnError(.wrongTopOrigin, "")) {
            try ceremony.assert(RelyingParty(ids: ["example.org"], allowsCrossOrigin: true))
        }
    }

    /// Step 15: `rpIdHash` is SHA-256 of the RP ID; an origin outside the RP ID says so.
    @Test func step15RPIDHash() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.rpID = "example.com"
        #expect(throws: WebAuthnError(.wrongRPIDHash, "")) { try ceremony.assert() }
        ceremony.origin = "https://example.com"
        #expect(throws: WebAuthnError(.wrongRPID, "")) {
            try ceremony.assert(RelyingParty(ids: ["example.org"], origins: ["https://example.com"]))
        }
    }

    /// Step 16: UP is set.
    @Test func step16UserPresent() throws {
        try HandmadeAssertion.expect(.upFlagMissing) { $0.flags.remove(.userPresent) }
    }

    /// Step 17: UV is set when the relying party requires user verification.
    @Test func step17UserVerified() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.flags.remove(.userVerified)
        #expect(throws: WebAuthnError(.uvRequiredButNotSet, "")) {
            try ceremony.assert(RelyingParty(id: "example.org", requireUserVerification: true))
        }
    }

    /// Step 18: BS is not set without BE.
    @Test func step18BackupStateNeedsEligibility() throws {
        try HandmadeAssertion.expect(.backupStateWithoutEligibility) { $0.flags = [.userPresent, .backupState] }
    }

    /// Step 19: BE is what it was at registration; BS may change and is reported.
    @Test func step19BackupEligibilityIsStable() throws {
        var ceremony = try HandmadeCeremony()
        let record = try ceremony.register().record()
        ceremony.flags = [.userPresent, .backupEligible]
        #expect(try ceremony.assert(record: record).backupState == false)
        ceremony.flags = [.userPresent]
        #expect(throws: WebAuthnError(.backupEligibilityChanged, "")) { try ceremony.assert(record: record) }
    }

    /// Steps 20 and 21: the signature verifies over `authData ‖ SHA-256(cData)` with the record's key.
    @Test func step20And21Signature() throws {
        let ceremony = try HandmadeCeremony()
        #expect(throws: WebAuthnError(.badSignature, "")) {
            try ceremony.assert(signedClientData: Array(#"{"type":"webauthn.get"}"#.utf8))
        }
        let otherKey = try SigningKey.generate(.es256)
        #expect(throws: WebAuthnError(.badSignature, "")) {
            try ceremony.assert(
                record: CredentialRecord(id: ceremony.credentialID, publicKey: otherKey.publicKey.bytes))
        }
    }

    /// Step 22: a counter that is not above a non-zero stored counter signals a clone.
    @Test func step22SignCount() throws {
        var ceremony = try HandmadeCeremony()
        var record = try ceremony.register().record()
        #expect(try ceremony.assert(record: record).signCount == 0)
        record.signCount = 5
        ceremony.signCount = 6
        #expect(try ceremony.assert(record: record).signCount == 6)
        for count: UInt32 in [5, 0] {
            ceremony.signCount = count
            #expect(throws: WebAuthnError(.signCountNotIncreased, "")) { try ceremony.assert(record: record) }
        }
    }
}
