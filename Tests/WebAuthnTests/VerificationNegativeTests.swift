import Testing
import WebAuthn

/// The relying-party checks the vectors do not reach: start from a valid ceremony made with a
/// fresh key, change one thing, expect one error code (WebAuthn L3 §7.1, §7.2).
@Suite struct VerificationNegativeTests {
    /// A minimal authenticator: one ES256 credential for `example.org`.
    struct Ceremony {
        var rpID = "example.org"
        var origin = "https://example.org"
        var flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backupState]
        var signCount: UInt32 = 0
        var format = AttestationFormat.none
        var statement: CBOR = [:]
        var crossOrigin = false
        var topOrigin: String?
        let key: SigningKey
        let credentialID = SecureRandom.bytes(16)
        let challenge = SecureRandom.bytes(32)

        init() throws {
            key = try SigningKey.generate(.es256)
        }

        var clientData: CollectedClientData {
            CollectedClientData(
                type: .create, challenge: challenge, origin: origin, crossOrigin: crossOrigin, topOrigin: topOrigin)
        }

        func attestationObject() throws -> [UInt8] {
            let authData = AuthenticatorData(
                rpIDHash: SHA256Digest.hash(Array(rpID.utf8)), flags: flags, signCount: signCount,
                attestedCredentialData: try AttestedCredentialData(
                    aaguid: .zero, credentialID: credentialID, publicKey: key.publicKey))
            return AttestationObject(format: format, statement: statement, authenticatorData: authData).bytes
        }

        func register(_ relyingParty: RelyingParty = .init(id: "example.org")) throws -> VerifiedRegistration {
            try relyingParty.verifyRegistration(
                clientDataJSON: clientData.bytes, attestationObject: attestationObject(), challenge: challenge)
        }

        /// An assertion over fresh client data, signed by the credential key.
        func assert(
            _ relyingParty: RelyingParty = .init(id: "example.org"), record: CredentialRecord? = nil,
            userHandle: [UInt8]? = nil, allowCredentials: [[UInt8]] = []
        ) throws -> VerifiedAuthentication {
            let clientData = CollectedClientData(type: .get, challenge: challenge, origin: origin)
            let authData = AuthenticatorData(
                rpIDHash: SHA256Digest.hash(Array(rpID.utf8)), flags: flags, signCount: signCount)
            return try relyingParty.verifyAuthentication(
                credentialID: credentialID, clientDataJSON: clientData.bytes, authenticatorData: authData.bytes,
                signature: key.signature(for: authData.bytes + clientData.hash), userHandle: userHandle,
                challenge: challenge,
                credential: record ?? CredentialRecord(id: credentialID, publicKey: key.publicKey.bytes),
                allowCredentials: allowCredentials)
        }
    }

    @Test func theBaselinePasses() throws {
        let ceremony = try Ceremony()
        let registration = try ceremony.register()
        #expect(registration.attestationType == .none)
        #expect(registration.backupEligible && registration.backupState && registration.userVerified)
        #expect(try ceremony.assert(record: registration.record()).signCount == 0)
    }

    @Test func backupStateWithoutEligibility() throws {
        var ceremony = try Ceremony()
        ceremony.flags = [.userPresent, .backupState]
        #expect(throws: WebAuthnError(.backupStateWithoutEligibility, "")) { try ceremony.register() }
        #expect(throws: WebAuthnError(.backupStateWithoutEligibility, "")) { try ceremony.assert() }
    }

    @Test func backupEligibilityMustNotChange() throws {
        var ceremony = try Ceremony()
        let record = try ceremony.register().record()
        ceremony.flags = [.userPresent]
        #expect(throws: WebAuthnError(.backupEligibilityChanged, "")) { try ceremony.assert(record: record) }
    }

    @Test func algorithmNotAllowed() throws {
        let ceremony = try Ceremony()
        #expect(throws: WebAuthnError(.algorithmNotAllowed, "")) {
            try ceremony.register(RelyingParty(id: "example.org", allowedAlgorithms: [.eddsa]))
        }
    }

    @Test func crossOriginNeedsConsent() throws {
        var ceremony = try Ceremony()
        ceremony.crossOrigin = true
        #expect(throws: WebAuthnError(.crossOriginNotAllowed, "")) { try ceremony.register() }
        ceremony.topOrigin = "https://top.example"
        let allowing = RelyingParty(
            ids: ["example.org"], allowsCrossOrigin: true, topOrigins: ["https://other.example"])
        #expect(throws: WebAuthnError(.wrongTopOrigin, "")) { try ceremony.register(allowing) }
        var accepting = allowing
        accepting.topOrigins.append("https://top.example")
        #expect(throws: Never.self) { try ceremony.register(accepting) }
    }

    @Test func noneStatementMustBeEmpty() throws {
        var ceremony = try Ceremony()
        ceremony.statement = ["alg": -7]
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
    }

    @Test func unsupportedFormat() throws {
        var ceremony = try Ceremony()
        ceremony.format = .tpm
        #expect(throws: WebAuthnError(.unsupportedAttestationFormat, "")) { try ceremony.register() }
    }

    @Test func packedSelfAttestation() throws {
        var ceremony = try Ceremony()
        ceremony.format = .packed
        let unsigned = try ceremony.attestationObject()
        let authData = try AttestationObject(bytes: unsigned).authenticatorData.bytes
        let signature = try ceremony.key.signature(for: authData + ceremony.clientData.hash)
        ceremony.statement = PackedAttestationStatement(algorithm: .es256, signature: signature).cbor
        #expect(try ceremony.register().attestationType == .self)

        ceremony.statement = PackedAttestationStatement(algorithm: .eddsa, signature: signature).cbor
        #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) { try ceremony.register() }
        ceremony.statement = PackedAttestationStatement(algorithm: .es256, signature: signature.reversed()).cbor
        #expect(throws: WebAuthnError(.badAttestationSignature, "")) { try ceremony.register() }
    }

    @Test func assertionCredentialChecks() throws {
        let ceremony = try Ceremony()
        let record = try ceremony.register().record(userHandle: [1, 2, 3])
        #expect(throws: WebAuthnError(.credentialNotAllowed, "")) {
            try ceremony.assert(record: record, allowCredentials: [[9, 9]])
        }
        #expect(throws: WebAuthnError(.userHandleMismatch, "")) { try ceremony.assert(record: record, userHandle: [4]) }
        #expect(throws: Never.self) { try ceremony.assert(record: record, userHandle: [1, 2, 3]) }
        var other = record
        other.id = [7]
        #expect(throws: WebAuthnError(.credentialNotAllowed, "")) { try ceremony.assert(record: other) }
    }

    @Test func signCountRule() throws {
        var ceremony = try Ceremony()
        var record = try ceremony.register().record()
        record.signCount = 5
        ceremony.signCount = 6
        #expect(try ceremony.assert(record: record).signCount == 6)
        ceremony.signCount = 5
        #expect(throws: WebAuthnError(.signCountNotIncreased, "")) { try ceremony.assert(record: record) }
        ceremony.signCount = 0
        #expect(throws: WebAuthnError(.signCountNotIncreased, "")) { try ceremony.assert(record: record) }
    }
}
