import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The tenant's ceremony endpoints run every step of WebAuthn L3 §7.1 and §7.2 that the relying
/// party performs on a response: for each step, an otherwise valid request to `/oauth/token`
/// (signup, login) or My Account's verify that breaks exactly that step is answered 400 with the
/// step's error. The DocC article "Verification steps" lists them beside the library's own tests.
@Suite struct VerificationStepTests {
    /// One §7.1 step broken in a registration, and what the tenant must say.
    struct RegistrationBreach: Sendable, CustomTestStringConvertible {
        let step: String
        let expected: WebAuthnError.Code
        let apply: @Sendable (inout HandmadeCeremony) throws -> Void

        var testDescription: String { "§7.1 step \(step) → \(expected)" }

        static let all: [Self] = [
            Self(step: "5 (UTF-8)", expected: .malformedClientData) { $0.rawClientData = [0x7B, 0xFF, 0x7D] },
            Self(step: "6 (JSON)", expected: .malformedClientData) {
                $0.rawClientData = Array(#"{"type":"webauthn.create"}"#.utf8)
            },
            Self(step: "7 (type)", expected: .wrongClientDataType) { $0.claimedType = .get },
            Self(step: "8 (challenge)", expected: .wrongChallenge) { $0.claimedChallenge = SecureRandom.bytes(32) },
            Self(step: "9 (origin)", expected: .wrongOrigin) { $0.origin = "https://localhost.evil.example" },
            Self(step: "10 (crossOrigin)", expected: .crossOriginNotAllowed) { $0.crossOrigin = true },
            Self(step: "11 (topOrigin)", expected: .crossOriginNotAllowed) { $0.topOrigin = "https://evil.example" },
            Self(step: "12 (hash)", expected: .badAttestationSignature) {
                try $0.attestSelf(signedClientData: Array(#"{"type":"webauthn.create"}"#.utf8))
            },
            Self(step: "13 (CBOR)", expected: .malformedAttestationObject) { $0.rawAttestationObject = [0xA1, 0x63] },
            Self(step: "14 (rpIdHash)", expected: .wrongRPIDHash) { $0.claimedRPID = "evil.example" },
            Self(step: "15 (UP)", expected: .upFlagMissing) { $0.flags.remove(.userPresent) },
            Self(step: "16 (UV)", expected: .uvRequiredButNotSet) { $0.flags.remove(.userVerified) },
            Self(step: "17 (BS ⇒ BE)", expected: .backupStateWithoutEligibility) { $0.flags.remove(.backupEligible) },
            Self(step: "20 (alg)", expected: .algorithmNotAllowed) { $0.key = try SigningKey.generate(.eddsa) },
            Self(step: "21 (fmt)", expected: .unsupportedAttestationFormat) {
                $0.format = AttestationFormat(rawValue: "x-unknown")
            },
            Self(step: "22 (attStmt)", expected: .badAttestationSignature) { ceremony in
                let impostor = try SigningKey.generate(.es256)
                let signed = try ceremony.authenticatorData().bytes + SHA256Digest.hash(ceremony.clientData(.create))
                ceremony.format = .packed
                ceremony.statement =
                    PackedAttestationStatement(algorithm: .es256, signature: try impostor.signature(for: signed)).cbor
            },
            Self(step: "25 (credential ID ≤ 1023 bytes)", expected: .malformedAttestationObject) {
                $0.rawAttestationObject = try $0.attestationObjectWithOverlongCredentialID()
            },
        ]
    }

    /// One §7.2 step broken in a discoverable login, and what the tenant must say.
    struct LoginBreach: Sendable, CustomTestStringConvertible {
        let step: String
        let expected: String
        /// Breaks the ceremony, or the user handle the client sends back.
        let apply: @Sendable (inout HandmadeCeremony, inout [UInt8]?) throws -> Void

        init(
            step: String, expected: WebAuthnError.Code,
            apply: @escaping @Sendable (inout HandmadeCeremony, inout [UInt8]?) throws -> Void
        ) {
            self.init(step: step, expectedText: "(\(expected))", apply: apply)
        }

        init(
            step: String, expectedText: String,
            apply: @escaping @Sendable (inout HandmadeCeremony, inout [UInt8]?) throws -> Void
        ) {
            self.step = step
            self.expected = expectedText
            self.apply = apply
        }

        var testDescription: String { "§7.2 step \(step) → \(expected)" }

        static let all: [Self] = [
            Self(step: "6 (credential registered)", expectedText: "not registered") { ceremony, _ in
                ceremony.credentialID = SecureRandom.bytes(16)
            },
            Self(step: "6 (userHandle present)", expected: .userHandleMissing) { $1 = nil },
            Self(step: "6 (userHandle is the owner's)", expected: .userHandleMismatch) { $1 = [1, 2, 3] },
            Self(step: "8 (UTF-8)", expected: .malformedClientData) { ceremony, _ in
                ceremony.rawClientData = [0x7B, 0xFF, 0x7D]
            },
            Self(step: "9 (JSON)", expected: .malformedClientData) { ceremony, _ in
                ceremony.rawClientData = Array(#"{"type":"webauthn.get"}"#.utf8)
            },
            Self(step: "10 (type)", expected: .wrongClientDataType) { ceremony, _ in ceremony.claimedType = .create },
            Self(step: "11 (challenge)", expected: .wrongChallenge) { ceremony, _ in
                ceremony.claimedChallenge = SecureRandom.bytes(32)
            },
            Self(step: "12 (origin)", expected: .wrongOrigin) { ceremony, _ in
                ceremony.origin = "https://localhost.evil.example"
            },
            Self(step: "13 (crossOrigin)", expected: .crossOriginNotAllowed) { ceremony, _ in
                ceremony.crossOrigin = true
            },
            Self(step: "14 (topOrigin)", expected: .crossOriginNotAllowed) { ceremony, _ in
                ceremony.topOrigin = "https://evil.example"
            },
            Self(step: "15 (rpIdHash)", expected: .wrongRPIDHash) { ceremony, _ in ceremony.claimedRPID = "evil.example"
            },
            Self(step: "16 (UP)", expected: .upFlagMissing) { ceremony, _ in ceremony.flags.remove(.userPresent) },
            Self(step: "17 (UV)", expected: .uvRequiredButNotSet) { ceremony, _ in
                ceremony.flags.remove(.userVerified)
            },
            Self(step: "18 (BS ⇒ BE)", expected: .backupStateWithoutEligibility) { ceremony, _ in
                ceremony.flags.remove(.backupEligible)
            },
            Self(step: "19 (BE unchanged)", expected: .backupEligibilityChanged) { ceremony, _ in
                ceremony.flags.subtract([.backupEligible, .backupState])
            },
            Self(step: "20–21 (hash, signature)", expected: .badSignature) { ceremony, _ in
                ceremony.rawClientData = nil
                ceremony.key = try SigningKey.generate(.es256)
            },
            Self(step: "22 (signCount)", expected: .signCountNotIncreased) { ceremony, _ in ceremony.signCount = 4 },
        ]
    }

    /// Where a registration is sent.
    enum RegistrationEndpoint: String, CaseIterable, Sendable {
        case signup = "/oauth/token (signup)"
        case myAccount = "My Account verify"
    }

    /// A tenant that requires user verification and takes ES256 and RS256 keys only, so that every
    /// step has something to refuse.
    private func harness() async throws -> TenantHarness {
        var configuration = TenantConfiguration(requiresUserVerification: true)
        configuration.algorithms = [.es256, .rs256]
        return try await TenantHarness(configuration: configuration)
    }

    /// A valid registration for the tenant's RP ID and origin, with a counter at 5.
    private static func ceremony() throws -> HandmadeCeremony {
        var ceremony = try HandmadeCeremony()
        ceremony.rpID = "localhost"
        ceremony.origin = TenantHarness.origin.description
        ceremony.signCount = 5
        return ceremony
    }

    /// Signs `email` up with `ceremony` (answering the signup challenge), returning the answer and
    /// the user handle the tenant gave the new user.
    private func signUp(
        _ harness: TenantHarness, _ http: any TestClientProtocol, _ ceremony: HandmadeCeremony,
        email: String = "ada@example.com", scope: String = "openid", audience: String? = nil,
        breach: @Sendable (inout HandmadeCeremony) throws -> Void = { _ in }
    ) async throws -> (HTTPResult, userHandle: [UInt8]) {
        let challenge = try await harness.signupChallenge(http, email: email)
        var ceremony = ceremony
        ceremony.challenge = challenge.options.challenge.bytes
        try breach(&ceremony)
        let result = try await http.send(
            .post, "/oauth/token",
            json: TokenRequest(
                grantType: TokenRequest.webAuthnGrant, clientID: harness.clientID, authSession: challenge.authSession,
                authnResponse: PasskeyResponse(ceremony.registrationJSON()), scope: scope, audience: audience))
        return (result, challenge.options.user.id.bytes)
    }

    /// Enrolls `ceremony` through My Account for a user signed up with another passkey.
    private func enroll(
        _ harness: TenantHarness, _ http: any TestClientProtocol, _ ceremony: HandmadeCeremony,
        token: String, breach: @Sendable (inout HandmadeCeremony) throws -> Void = { _ in }
    ) async throws -> HTTPResult {
        let challenge = try await http.send(
            .post, "/me/v1/authentication-methods", json: EnrollmentChallengeRequest(), bearer: token
        ).decode(CreationChallengeResponse.self)
        var ceremony = ceremony
        ceremony.challenge = challenge.options.challenge.bytes
        try breach(&ceremony)
        return try await http.send(
            .post, "/me/v1/authentication-methods/passkey%7Cnew/verify",
            json: EnrollmentVerifyRequest(
                authSession: challenge.authSession, authnResponse: PasskeyResponse(ceremony.registrationJSON())),
            bearer: token)
    }

    /// A signed-up user's My Account access token.
    private func myAccountToken(_ harness: TenantHarness, _ http: any TestClientProtocol) async throws -> String {
        let (result, _) = try await signUp(
            harness, http, Self.ceremony(), email: "my-account@example.com",
            scope: "openid create:me:authentication_methods",
            audience: "https://localhost/me/")
        guard result.status == .ok else { throw HarnessError(result) }
        return try result.decode(TokenResponse.self).accessToken.text
    }

    @Test func theHandmadeBaselinePassesEveryEndpoint() async throws {
        let harness = try await harness()
        let (signup, enrollment, login) = try await harness.router { http in
            let ceremony = try Self.ceremony()
            let (signup, userHandle) = try await signUp(harness, http, ceremony, email: "grace@example.com")
            let token = try await myAccountToken(harness, http)
            let enrollment = try await enroll(harness, http, Self.ceremony(), token: token)
            return (signup, enrollment, try await logIn(harness, http, ceremony, userHandle: userHandle))
        }
        #expect(signup.status == .ok, "\(signup.text)")
        #expect(enrollment.status == .created, "\(enrollment.text)")
        #expect(login.status == .ok, "\(login.text)")
    }

    @Test(arguments: RegistrationBreach.all, RegistrationEndpoint.allCases)
    func aBrokenRegistrationStepIsRefused(_ breach: RegistrationBreach, at endpoint: RegistrationEndpoint)
        async throws
    {
        let harness = try await harness()
        let result = try await harness.router { http in
            switch endpoint {
            case .signup:
                try await signUp(harness, http, Self.ceremony(), breach: breach.apply).0
            case .myAccount:
                try await enroll(
                    harness, http, Self.ceremony(), token: myAccountToken(harness, http), breach: breach.apply)
            }
        }
        #expect(result.status == .badRequest, "\(result.text)")
        #expect(result.errorCode == "invalid_grant")
        #expect(result.text.contains("(\(breach.expected))"), "\(result.text)")
    }

    /// §7.1 step 26: a credential ID registered already (to anyone) is refused, and nothing is stored.
    @Test(arguments: RegistrationEndpoint.allCases)
    func aRegisteredCredentialIDIsRefused(at endpoint: RegistrationEndpoint) async throws {
        let harness = try await harness()
        let first = try Self.ceremony()
        let copy = try {
            var copy = try Self.ceremony()
            copy.credentialID = first.credentialID
            return copy
        }()
        let (result, secondUserCanSignUp) = try await harness.router { http in
            let (signup, _) = try await signUp(harness, http, first, email: "grace@example.com")
            #expect(signup.status == .ok)
            let result =
                switch endpoint {
                case .signup: try await signUp(harness, http, copy).0
                case .myAccount: try await enroll(harness, http, copy, token: myAccountToken(harness, http))
                }
            return (result, try await signUp(harness, http, Self.ceremony(), email: "ada@example.com").0.status)
        }
        #expect(result.status == .badRequest, "\(result.text)")
        #expect(result.errorCode == "invalid_request")
        #expect(result.text.contains("registered already"), "\(result.text)")
        #expect(secondUserCanSignUp == .ok, "the refused registration stored nothing")
    }

    /// Logs in with `ceremony`'s passkey (answering a login challenge), sending `userHandle`.
    private func logIn(
        _ harness: TenantHarness, _ http: any TestClientProtocol, _ ceremony: HandmadeCeremony,
        userHandle: [UInt8], breach: @Sendable (inout HandmadeCeremony, inout [UInt8]?) throws -> Void = { _, _ in }
    ) async throws -> HTTPResult {
        let challenge = try await harness.loginChallenge(http)
        var ceremony = ceremony
        var userHandle: [UInt8]? = userHandle
        ceremony.challenge = challenge.options.challenge.bytes
        ceremony.signCount += 1
        try breach(&ceremony, &userHandle)
        return try await harness.grant(
            http, session: challenge.authSession,
            response: PasskeyResponse(ceremony.assertionJSON(userHandle: userHandle)))
    }

    @Test(arguments: LoginBreach.all)
    func aBrokenLoginStepIsRefused(_ breach: LoginBreach) async throws {
        let harness = try await harness()
        let ceremony = try Self.ceremony()
        let (result, retry) = try await harness.router { http in
            let (signup, userHandle) = try await signUp(harness, http, ceremony)
            #expect(signup.status == .ok, "\(signup.text)")
            let result = try await logIn(harness, http, ceremony, userHandle: userHandle, breach: breach.apply)
            return (result, try await logIn(harness, http, ceremony, userHandle: userHandle))
        }
        #expect(result.status == .badRequest, "\(result.text)")
        #expect(result.errorCode == "invalid_grant")
        #expect(result.text.contains(breach.expected), "\(result.text)")
        #expect(retry.status == .ok, "a refused login changes nothing: \(retry.text)")
    }
}
