public import WebAuthn

extension ConformanceSuite {
    /// Registrations to accept and refuse (`REG`), each breaking one step of WebAuthn L3 §7.1,
    /// their attestation `none`.
    public static let registration: [ConformanceTest] =
        signable.map { algorithm in
            registers(
                "REG-ACCEPT-\(algorithm.name)", .accepted, "a credential with \(algorithm) is registered",
                rule: "WebAuthn L3 §7.1 step 20, §5.8.5 (skipped when not offered)", algorithm: algorithm)
        } + [
            registers("REG-ACCEPT-UV-CLEAR", .accepted, "UV may be clear when the options only prefer it",
                      rule: "WebAuthn L3 §7.1 step 16") { $0.ceremony.flags = [.userPresent] },
            registers("REG-ACCEPT-BACKUP-ELIGIBLE", .accepted, "a backup-eligible credential not yet backed up",
                      rule: "WebAuthn L3 §7.1 steps 17–19") {
                $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible]
            },
            registers("REG-ACCEPT-BACKED-UP", .accepted, "a synced passkey: BE and BS set",
                      rule: "WebAuthn L3 §7.1 steps 17–19") {
                $0.ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backupState]
            },
            registers("REG-ACCEPT-EXTENSIONS", .accepted, "client extension outputs (credProps) are read, not refused",
                      rule: "WebAuthn L3 §7.1 step 21 (extensions), §10.1.3") {
                $0.clientExtensionResults = ["credProps": .object(["rk": .bool(true)])]
            },
            registers("REG-REFUSE-CREDENTIAL-TYPE", .refused, "the credential's type is not public-key",
                      rule: "WebAuthn L3 §7.1 step 3, §5.1") { $0.credentialType = "password" },
            registers("REG-REFUSE-TYPE", .refused, "client data type is webauthn.get",
                      rule: "WebAuthn L3 §7.1 step 7") { $0.ceremony.claimedType = .get },
            registers("REG-REFUSE-CHALLENGE", .refused, "client data carries another challenge",
                      rule: "WebAuthn L3 §7.1 step 8") { $0.ceremony.claimedChallenge = SecureRandom.bytes(32) },
            registers("REG-REFUSE-ORIGIN", .refused, "client data carries another origin",
                      rule: "WebAuthn L3 §7.1 step 9") { $0.ceremony.origin = "https://evil.example" },
            registers("REG-REFUSE-CROSS-ORIGIN", .refused, "a cross-origin call from a top origin nobody expects",
                      rule: "WebAuthn L3 §7.1 steps 10–11") {
                $0.ceremony.crossOrigin = true
                $0.ceremony.topOrigin = "https://evil.example"
            },
            registers("REG-REFUSE-CLIENT-DATA", .refused, "client data is not JSON",
                      rule: "WebAuthn L3 §7.1 steps 5–6") { $0.ceremony.rawClientData = Array("{\"type\":".utf8) },
            registers("REG-REFUSE-CBOR", .refused, "the attestation object is truncated CBOR",
                      rule: "WebAuthn L3 §7.1 step 13") { forgery throws(ConformanceError) in
                let bytes = try forged { try forgery.ceremony.attestationObject() }
                forgery.ceremony.rawAttestationObject = Array(bytes.prefix(bytes.count / 2))
            },
            registers("REG-REFUSE-NO-CREDENTIAL-DATA", .refused, "authenticator data has no attested credential data (AT clear)",
                      rule: "WebAuthn L3 §7.1 steps 13 and 20, §6.1 (AT)") { forgery in
                let authData = AuthenticatorData(
                    rpIDHash: SHA256Digest.hash(Array(forgery.ceremony.rpID.utf8)),
                    flags: forgery.ceremony.flags, signCount: 0)
                let object: CBOR = ["fmt": "none", "attStmt": [:], "authData": .bytes(authData.bytes)]
                forgery.ceremony.rawAttestationObject = object.encoded()
            },
            registers("REG-REFUSE-RPID-HASH", .refused, "rpIdHash is another RP ID's",
                      rule: "WebAuthn L3 §7.1 step 14") { $0.ceremony.claimedRPID = "evil.example" },
            registers("REG-REFUSE-UP", .refused, "UP is clear",
                      rule: "WebAuthn L3 §7.1 step 15") { $0.ceremony.flags = [] },
            registers("REG-REFUSE-UV-REQUIRED", .refused, "UV is clear when the options require it",
                      rule: "WebAuthn L3 §7.1 step 16", userVerification: .required) { forgery throws(ConformanceError) in
                try forgery.requireUserVerificationAsked()
                forgery.ceremony.flags = [.userPresent]
            },
            registers("REG-REFUSE-BS-WITHOUT-BE", .refused, "BS is set without BE",
                      rule: "WebAuthn L3 §7.1 step 17") {
                $0.ceremony.flags = [.userPresent, .userVerified, .backupState]
            },
            registers("REG-REFUSE-ALGORITHM", .refused, "the credential's algorithm is not one the options offered",
                      rule: "WebAuthn L3 §7.1 step 20") { forgery throws(ConformanceError) in
                let offered = Set(forgery.options.pubKeyCredParams.map(\.alg))
                guard let other = signable.first(where: { !offered.contains($0.rawValue) })
                else {
                    throw ConformanceError(.skipped, "the server offers every algorithm the runner can sign with")
                }
                forgery.ceremony.key = try forged { try SigningKey.generate(other) }
            },
            registers("REG-REFUSE-UNKNOWN-FORMAT", .refused, "the attestation format is one nobody registered",
                      rule: "WebAuthn L3 §7.1 step 21") { $0.ceremony.format = "softpasskey-unknown" },
            ConformanceTest("REG-REFUSE-DUPLICATE-ID", .registration, .refused,
                            "another user registers a credential ID already registered",
                            rule: "WebAuthn L3 §7.1 step 26") { run throws(ConformanceError) in
                let first = try await run.registered()
                return try await run.register { $0.ceremony.credentialID = first.ceremony.credentialID }.verdict
            },
        ]

    /// The algorithms the runner signs with (``SigningKey/generate(_:)``).
    static let signable: [COSEAlgorithm] = [.es256, .eddsa, .rs256, .ps256]

    /// A test that registers one forged credential and judges the verdict.
    static func registers(
        _ id: String, _ expected: ConformanceTest.Verdict, _ title: String, rule: String,
        group: ConformanceGroup = .registration, userVerification: UserVerificationRequirement = .preferred,
        algorithm: COSEAlgorithm = .es256,
        _ forge: @escaping @Sendable (inout RegistrationForgery) throws(ConformanceError) -> Void = {
            _ throws(ConformanceError) in
        }
    ) -> ConformanceTest {
        ConformanceTest(id, group, expected, title, rule: rule) { run throws(ConformanceError) in
            try await run.register(userVerification: userVerification, algorithm: algorithm, forge).verdict
        }
    }

    /// The value `make` gives, or a `forgery` error when it throws.
    static func forged<Value>(_ make: () throws -> Value) throws(ConformanceError) -> Value {
        do {
            return try make()
        } catch {
            throw ConformanceError(.forgery, "\(error)")
        }
    }
}

extension COSEAlgorithm {
    /// The algorithm's name in a test ID: `ES256`, `EDDSA`, `RS256`, `PS256`.
    var name: String { String(describing: self).uppercased() }
}
