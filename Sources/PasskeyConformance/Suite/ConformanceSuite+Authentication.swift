public import WebAuthn

extension ConformanceSuite {
    /// Assertions to accept and refuse (`AUTH`), each with a credential registered for the test
    /// and one step of WebAuthn L3 §7.2 broken.
    public static let authentication: [ConformanceTest] =
        signable.map { algorithm in
            asserts(
                "AUTH-ACCEPT-\(algorithm.name)", .accepted, "a credential with \(algorithm) signs in",
                rule: "WebAuthn L3 §7.2 steps 20–21 (skipped when not offered)", algorithm: algorithm) { _ in }
        } + [
            asserts("AUTH-ACCEPT-UV", .accepted, "a verified user signs in where the options require it",
                    rule: "WebAuthn L3 §7.2 step 17", userVerification: .required) { forgery throws(ConformanceError) in
                try forgery.requireUserVerificationAsked()
            },
            asserts("AUTH-ACCEPT-COUNTER", .accepted, "a counter above the stored one is accepted",
                    rule: "WebAuthn L3 §7.2 step 22", register: { $0.ceremony.signCount = 41 }) { _ in },
            ConformanceTest("AUTH-ACCEPT-SYNCED-COUNTER-ZERO", .authentication, .accepted,
                            "a synced passkey (BE) that keeps its counter at 0 signs in twice",
                            rule: "WebAuthn L3 §7.2 step 22, §6.1.1") { run throws(ConformanceError) in
                let registration = try await run.registered {
                    $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backupState]
                }
                try await run.authenticated(registration)
                return try await run.authenticate(registration)
            },
            asserts("AUTH-ACCEPT-BACKED-UP-LATER", .accepted, "a backup-eligible credential reports BS set after registration",
                    rule: "WebAuthn L3 §7.2 steps 18–19, §6.1.3",
                    register: { $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible] }) {
                $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backupState]
            },
            asserts("AUTH-REFUSE-CREDENTIAL-TYPE", .refused, "the credential's type is not public-key",
                    rule: "WebAuthn L3 §7.2 step 3, §5.1") { $0.credentialType = "password" },
            asserts("AUTH-REFUSE-UNKNOWN-CREDENTIAL", .refused, "a credential ID the server never registered",
                    rule: "WebAuthn L3 §7.2 steps 5–7") { $0.ceremony.credentialID = SecureRandom.bytes(16) },
            asserts("AUTH-REFUSE-USER-HANDLE", .refused, "userHandle names another user",
                    rule: "WebAuthn L3 §7.2 step 6") { $0.userHandle = SecureRandom.bytes(16) },
            ConformanceTest("AUTH-REFUSE-OTHER-USERS-CREDENTIAL", .authentication, .refused,
                            "a user signs in with another user's credential",
                            rule: "WebAuthn L3 §7.2 steps 5–6") { run throws(ConformanceError) in
                let owner = try await run.registered()
                let other = try await run.registered()
                return try await run.authenticate(other) { forgery throws(ConformanceError) in
                    guard !(forgery.options.allowCredentials ?? []).isEmpty else {
                        throw ConformanceError(
                            .skipped, "the server asks for discoverable credentials: any user's credential signs in")
                    }
                    forgery.ceremony.credentialID = owner.ceremony.credentialID
                    forgery.ceremony.key = owner.ceremony.key
                    forgery.userHandle = owner.userHandle
                }
            },
            asserts("AUTH-REFUSE-CLIENT-DATA", .refused, "client data is not JSON",
                    rule: "WebAuthn L3 §7.2 steps 8–9") { $0.ceremony.rawClientData = Array("[".utf8) },
            asserts("AUTH-REFUSE-TYPE", .refused, "client data type is webauthn.create",
                    rule: "WebAuthn L3 §7.2 step 10") { $0.ceremony.claimedType = .create },
            asserts("AUTH-REFUSE-CHALLENGE", .refused, "client data carries another challenge",
                    rule: "WebAuthn L3 §7.2 step 11") { $0.ceremony.claimedChallenge = SecureRandom.bytes(32) },
            asserts("AUTH-REFUSE-ORIGIN", .refused, "client data carries another origin",
                    rule: "WebAuthn L3 §7.2 step 12") { $0.ceremony.origin = "https://evil.example" },
            asserts("AUTH-REFUSE-CROSS-ORIGIN", .refused, "a cross-origin call from a top origin nobody expects",
                    rule: "WebAuthn L3 §7.2 steps 13–14") {
                $0.ceremony.crossOrigin = true
                $0.ceremony.topOrigin = "https://evil.example"
            },
            asserts("AUTH-REFUSE-RPID-HASH", .refused, "rpIdHash is another RP ID's",
                    rule: "WebAuthn L3 §7.2 step 15") { $0.ceremony.claimedRPID = "evil.example" },
            asserts("AUTH-REFUSE-UP", .refused, "UP is clear",
                    rule: "WebAuthn L3 §7.2 step 16") { $0.ceremony.flags = [] },
            asserts("AUTH-REFUSE-UV-REQUIRED", .refused, "UV is clear when the options require it",
                    rule: "WebAuthn L3 §7.2 step 17", userVerification: .required) { forgery throws(ConformanceError) in
                try forgery.requireUserVerificationAsked()
                forgery.ceremony.flags = [.userPresent]
            },
            asserts("AUTH-REFUSE-BS-WITHOUT-BE", .refused, "BS is set without BE",
                    rule: "WebAuthn L3 §7.2 step 18") { $0.ceremony.flags = [.userPresent, .userVerified, .backupState] },
            asserts("AUTH-REFUSE-BE-CHANGED", .refused, "BE is set though it was clear at registration",
                    rule: "WebAuthn L3 §7.2 step 19") {
                $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible]
            },
            asserts("AUTH-REFUSE-SIGNATURE", .refused, "the signature does not verify",
                    rule: "WebAuthn L3 §7.2 steps 20–21") { $0.corruptsSignature = true },
            asserts("AUTH-REFUSE-COUNTER", .refused, "a counter below the stored one (a cloned authenticator)",
                    rule: "WebAuthn L3 §7.2 step 22", register: { $0.ceremony.signCount = 41 }) {
                $0.ceremony.signCount = 7
            },
            ConformanceTest("AUTH-REFUSE-REPLAY", .authentication, .refused,
                            "an assertion the server accepted, sent again (its challenge spent)",
                            rule: "WebAuthn L3 §13.4.3, §7.2 step 11") { run throws(ConformanceError) in
                let registration = try await run.registered {
                    $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backupState]
                }
                let (answer, options) = try await run.requestOptions(username: registration.username)
                let credential = try AssertionForgery(registration: registration, options: options).credential()
                let first = try await run.target.send(.assertionResult, credential, after: answer)
                guard first.accepted else {
                    throw ConformanceError(.wrongVerdict, "the server refused a valid assertion: \(first.summary)")
                }
                return try await run.target.send(.assertionResult, credential, after: answer)
            },
        ]

    /// A test that registers a good credential (changed by `register`), then sends one forged
    /// assertion with it and judges the verdict.
    static func asserts(
        _ id: String, _ expected: ConformanceTest.Verdict, _ title: String, rule: String,
        userVerification: UserVerificationRequirement = .preferred, algorithm: COSEAlgorithm = .es256,
        register: @escaping @Sendable (inout RegistrationForgery) throws(ConformanceError) -> Void = {
            _ throws(ConformanceError) in
        },
        _ forge: @escaping @Sendable (inout AssertionForgery) throws(ConformanceError) -> Void
    ) -> ConformanceTest {
        ConformanceTest(id, .authentication, expected, title, rule: rule) { run throws(ConformanceError) in
            let registration = try await run.registered(algorithm: algorithm, register)
            return try await run.authenticate(registration, userVerification: userVerification, forge)
        }
    }
}
