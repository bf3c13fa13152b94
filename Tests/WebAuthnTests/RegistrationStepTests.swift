import TestSupport
import Testing
import WebAuthn

/// One test per step of WebAuthn L3 §7.1 "Registering a New Credential" that a relying party runs
/// on the response: each starts from a valid registration, breaks exactly that step, and expects
/// exactly its error code. The DocC article "Verification steps" lists them.
@Suite struct RegistrationStepTests {
    @Test func theBaselinePasses() throws {
        let registration = try HandmadeCeremony().register()
        #expect(registration.attestationType == .none)
        #expect(registration.backupEligible && registration.backupState && registration.userVerified)
    }

    /// Step 3 (with §5.1): a response whose credential `type` is not `public-key` is not a
    /// `PublicKeyCredential`'s, however valid the rest.
    @Test(arguments: ["public-key-x", "", "Public-Key"])
    func step03CredentialType(_ type: String) throws {
        let ceremony = try HandmadeCeremony()
        var response = try ceremony.registrationJSON()
        let relyingParty = RelyingParty(id: "example.org")
        #expect(throws: Never.self) { try relyingParty.verifyRegistration(response, challenge: ceremony.challenge) }
        response.type = PublicKeyCredentialType(rawValue: type)
        #expect(throws: WebAuthnError(.wrongCredentialType, "")) {
            try relyingParty.verifyRegistration(response, challenge: ceremony.challenge)
        }
    }

    /// Step 5: client data that is not UTF-8.
    @Test func step05ClientDataIsUTF8() throws {
        try HandmadeCeremony.expect(.malformedClientData) { $0.rawClientData = [0x7B, 0xFF, 0xFE, 0x7D] }
    }

    /// Step 6: client data that is not a JSON object of the required members.
    @Test func step06ClientDataIsJSON() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.rawClientData = Array(#"{"type":"webauthn.create""#.utf8)
        #expect(throws: WebAuthnError(.malformedClientData, "")) { try ceremony.register() }
        ceremony.rawClientData = Array(#"{"type":"webauthn.create","origin":"https://example.org"}"#.utf8)
        #expect(throws: WebAuthnError(.malformedClientData, "")) { try ceremony.register() }
    }

    /// Step 7: `C.type` is `webauthn.create`.
    @Test func step07Type() throws {
        try HandmadeCeremony.expect(.wrongClientDataType) { $0.claimedType = .get }
    }

    /// Step 8: `C.challenge` is the base64url encoding of the challenge issued.
    @Test func step08Challenge() throws {
        try HandmadeCeremony.expect(.wrongChallenge) { $0.claimedChallenge = SecureRandom.bytes(32) }
    }

    /// Step 9: `C.origin` is an origin the relying party expects.
    @Test func step09Origin() throws {
        try HandmadeCeremony.expect(.wrongOrigin) { $0.origin = "https://example.org.evil.example" }
    }

    /// Step 10: `C.crossOrigin` true only where the relying party expects cross-origin iframes.
    @Test func step10CrossOrigin() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.crossOrigin = true
        #expect(throws: WebAuthnError(.crossOriginNotAllowed, "")) { try ceremony.register() }
        #expect(throws: Never.self) {
            try ceremony.register(RelyingParty(ids: ["example.org"], allowsCrossOrigin: true))
        }
    }

    /// Step 11: a `C.topOrigin` means a cross-origin iframe the relying party expects (11.1), under
    /// a top-level origin it expects (11.2).
    @Test func step11TopOrigin() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.topOrigin = "https://top.example"  // crossOrigin absent: step 10 has nothing to refuse
        let noIframes = RelyingParty(ids: ["example.org"], topOrigins: ["https://top.example"])
        #expect(throws: WebAuthnError(.crossOriginNotAllowed, "")) { try ceremony.register(noIframes) }
        ceremony.crossOrigin = true
        let otherTop = RelyingParty(
            ids: ["example.org"], allowsCrossOrigin: true, topOrigins: ["https://other.example"])
        #expect(throws: WebAuthnError(.wrongTopOrigin, "")) { try ceremony.register(otherTop) }
        var expected = otherTop
        expected.topOrigins.append("https://top.example")
        #expect(throws: Never.self) { try ceremony.register(expected) }
    }

    /// Step 12: the attestation signs the hash of the client data sent, not of other client data.
    @Test func step12ClientDataHash() throws {
        var ceremony = try HandmadeCeremony()
        try ceremony.attestSelf()
        #expect(try ceremony.register().attestationType == .self)
        try ceremony.attestSelf(signedClientData: Array(#"{"type":"webauthn.create"}"#.utf8))
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) { try ceremony.register() }
    }

    /// Step 13: the attestation object is CBOR with `fmt`, `authData` and `attStmt`.
    @Test func step13AttestationObjectIsCBOR() throws {
        let ceremony = try HandmadeCeremony()
        let relyingParty = RelyingParty(id: "example.org")
        for bytes: [UInt8] in [[0xA1, 0x63], Array((try ceremony.attestationObject()).dropLast()), [0x01]] {
            #expect(throws: WebAuthnError(.malformedAttestationObject, "")) {
                try relyingParty.verifyRegistration(
                    clientDataJSON: ceremony.clientData(.create), attestationObject: bytes,
                    challenge: ceremony.challenge)
            }
        }
    }

    /// Step 14: `rpIdHash` is SHA-256 of the RP ID.
    @Test func step14RPIDHash() throws {
        try HandmadeCeremony.expect(.wrongRPIDHash) { $0.rpID = "login.example.org" }
    }

    /// Step 15: UP is set, unless the registration was conditional (`requireUserPresence` false).
    @Test func step15UserPresent() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.flags.remove(.userPresent)
        #expect(throws: WebAuthnError(.upFlagMissing, "")) { try ceremony.register() }
        let conditional = RelyingParty(ids: ["example.org"], requireUserPresence: false)
        #expect(throws: Never.self) { try ceremony.register(conditional) }
    }

    /// Step 16: UV is set when the relying party requires user verification.
    @Test func step16UserVerified() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.flags.remove(.userVerified)
        #expect(throws: Never.self) { try ceremony.register() }
        #expect(throws: WebAuthnError(.uvRequiredButNotSet, "")) {
            try ceremony.register(RelyingParty(id: "example.org", requireUserVerification: true))
        }
    }

    /// Step 17: BS is not set without BE.
    @Test func step17BackupStateNeedsEligibility() throws {
        try HandmadeCeremony.expect(.backupStateWithoutEligibility) {
            $0.flags = [.userPresent, .backupState]
        }
    }

    /// Steps 18 and 19: BE and BS are reported for the relying party's policy.
    @Test func step18And19BackupFlagsAreReported() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.flags = [.userPresent, .backupEligible]
        let registration = try ceremony.register()
        #expect(registration.backupEligible && !registration.backupState)
        #expect(registration.record().backupEligible == true)
    }

    /// Step 20: the credential's `alg` is one the relying party offered.
    @Test func step20Algorithm() throws {
        let ceremony = try HandmadeCeremony()
        #expect(throws: WebAuthnError(.algorithmNotAllowed, "")) {
            try ceremony.register(RelyingParty(id: "example.org", allowedAlgorithms: [.eddsa]))
        }
    }

    /// Step 21: `fmt` matches a supported format, case-sensitively.
    @Test func step21Format() throws {
        var ceremony = try HandmadeCeremony()
        for format in ["Packed", "NONE", "x-unknown"] {
            ceremony.format = AttestationFormat(rawValue: format)
            #expect(throws: WebAuthnError(.unsupportedAttestationFormat, "")) { try ceremony.register() }
        }
    }

    /// Step 22: the statement verifies by its format's procedure.
    @Test func step22Statement() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.statement = ["alg": -7]
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        try ceremony.attestSelf()
        let signed = ceremony.statement
        ceremony.statement =
            PackedAttestationStatement(
                algorithm: .eddsa, signature: try #require(signed["sig"]?.bytesValue)
            ).cbor
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        ceremony.statement =
            PackedAttestationStatement(
                algorithm: .es256, signature: try #require(signed["sig"]?.bytesValue).reversed()
            ).cbor
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) { try ceremony.register() }
    }

    /// Steps 23 and 24: with trust anchors for the format, the trust path must chain to one of them.
    @Test func step23And24TrustPath() throws {
        let vector = try Vectors.load(W3CVector.self, "w3c", "packed-es256.json")
        let root = try Vectors.load(W3CAttestationRoot.self, "w3c", "attestation-root-cert.json")
        let other = try Vectors.load(
            RealWorldVector.self, "realworld", "reg-packed-pywebauthn-raises-when-root-cert-invalid-for-response.json")
        let otherRoot = try X509Certificate.certificates(
            pem: try #require(other.trust_anchors?.by_fmt?["packed"]?.first))
        func verify(_ anchors: [X509Certificate]) throws -> VerifiedRegistration {
            try RelyingParty(ids: ["example.org"], trustAnchors: anchors.isEmpty ? [:] : [.packed: anchors])
                .verifyRegistration(
                    clientDataJSON: vector.registration.expected.clientDataJSON_hex.bytes,
                    attestationObject: vector.registration.expected.attestationObject_hex.bytes,
                    challenge: vector.registration.inputs.challenge_hex.bytes)
        }
        #expect(try verify([]).isTrusted == false)
        #expect(try verify(X509Certificate.certificates(pem: root.derived.attestation_ca_cert_pem)).isTrusted)
        #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) { try verify(otherRoot) }
    }

    /// Step 25: a credential ID over 1023 bytes does not parse as attested credential data.
    @Test func step25CredentialIDLength() throws {
        var ceremony = try HandmadeCeremony()
        ceremony.credentialID = SecureRandom.bytes(1023)
        #expect(throws: Never.self) { try ceremony.register() }
        #expect(throws: WebAuthnError(.malformedAttestationObject, "")) {
            try RelyingParty(id: "example.org").verifyRegistration(
                clientDataJSON: ceremony.clientData(.create),
                attestationObject: ceremony.attestationObjectWithOverlongCredentialID(),
                challenge: ceremony.challenge)
        }
    }
}
