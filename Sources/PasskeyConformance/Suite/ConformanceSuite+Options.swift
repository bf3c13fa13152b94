public import WebAuthn

extension ConformanceSuite {
    /// The options a server gives (`OPT`): what WebAuthn L3 §5.4 and §5.5 ask of them, and what
    /// the transport binding's `ServerPublicKeyCredentialCreationOptionsResponse` and
    /// `ServerPublicKeyCredentialGetOptionsResponse` echo of the request.
    public static let options: [ConformanceTest] = [
        check("OPT-REG-CHALLENGE", "creation options carry a challenge of at least 16 random bytes",
              rule: "WebAuthn L3 §13.4.3") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername())
            try expect(options.challenge.bytes.count >= 16, "the challenge is \(options.challenge.bytes.count) bytes")
        },
        check("OPT-REG-CHALLENGE-FRESH", "each creation options call gives a new challenge",
              rule: "WebAuthn L3 §13.4.3") { run throws(ConformanceError) in
            let username = run.newUsername()
            let first = try await run.creationOptions(username: username).options.challenge
            let second = try await run.creationOptions(username: username).options.challenge
            try expect(first != second, "two calls gave the same challenge \(first)")
        },
        check("OPT-REG-RP", "rp names the relying party, and rp.id, when given, is the origin's host or a domain above it",
              rule: "WebAuthn L3 §5.4.2, §5.1.3 step 8") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername())
            try expect(!options.rp.name.isEmpty, "rp.name is empty")
            if let id = options.rp.id {
                let origin = try? WebOrigin(run.configuration.origin)
                try expect(origin?.isWithin(rpID: id) == true, "rp.id \(id) does not cover \(run.configuration.origin)")
            }
        },
        check("OPT-REG-USER", "user carries the user name asked for and a user handle of 1 to 64 bytes that is not the name",
              rule: "WebAuthn L3 §5.4.3, §14.6.1") { run throws(ConformanceError) in
            let username = run.newUsername()
            let (_, options) = try await run.creationOptions(username: username)
            let handle = options.user.id.bytes
            try expect((1...64).contains(handle.count), "user.id is \(handle.count) bytes")
            try expect(handle != Array(username.utf8), "user.id is the user name itself")
            try expect(options.user.name == username, "user.name is \(options.user.name), not \(username)")
        },
        check("OPT-REG-ALGORITHMS", "pubKeyCredParams lists public-key algorithms, ES256 among them",
              rule: "WebAuthn L3 §5.4 pubKeyCredParams; FIDO binding (ES256 is mandatory)") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername())
            try expect(!options.pubKeyCredParams.isEmpty, "pubKeyCredParams is empty")
            try expect(options.pubKeyCredParams.allSatisfy { $0.type == .publicKey }, "a parameter is not public-key")
            try expect(
                options.pubKeyCredParams.contains { $0.alg == COSEAlgorithm.es256.rawValue }, "ES256 (-7) is not offered")
        },
        check("OPT-REG-EXCLUDE", "a second registration's options exclude the user's credential",
              rule: "WebAuthn L3 §5.4 excludeCredentials") { run throws(ConformanceError) in
            let registration = try await run.registered()
            let (_, options) = try await run.creationOptions(username: registration.username)
            let excluded = options.excludeCredentials?.map(\.id.bytes) ?? []
            try expect(excluded.contains(registration.ceremony.credentialID), "excludeCredentials lacks the credential")
        },
        check("OPT-REG-SELECTION", "authenticatorSelection keeps the user verification asked for",
              rule: "WebAuthn L3 §5.4.4; FIDO binding ServerPublicKeyCredentialCreationOptionsRequest") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername(), userVerification: .required)
            let asked = options.authenticatorSelection?.userVerification
            try expect(asked == .required, "userVerification is \(asked?.rawValue ?? "absent"), not required")
        },
        check("OPT-REG-ATTESTATION", "the attestation conveyance asked for is kept",
              rule: "WebAuthn L3 §5.4.7; FIDO binding ServerPublicKeyCredentialCreationOptionsRequest") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername(), attestation: .direct)
            try expect(options.attestation == .direct, "attestation is \(options.attestation?.rawValue ?? "absent")")
        },
        check("OPT-REG-TIMEOUT", "timeout, when given, is a positive number of milliseconds",
              rule: "WebAuthn L3 §5.4 timeout") { run throws(ConformanceError) in
            let (_, options) = try await run.creationOptions(username: run.newUsername())
            try expect(options.timeout.map { $0 > 0 } ?? true, "timeout is 0")
        },
        check("OPT-REG-EXTENSIONS", "extensions, when given, are client extension inputs (an object)",
              rule: "WebAuthn L3 §5.4 extensions, §9") { run throws(ConformanceError) in
            let (answer, _) = try await run.creationOptions(username: run.newUsername())
            let extensions = answer.options?["extensions"]
            try expect(extensions == nil || extensions?.objectValue != nil, "extensions is not an object")
        },
        check("OPT-AUTH-CHALLENGE", "request options carry a fresh challenge of at least 16 bytes",
              rule: "WebAuthn L3 §13.4.3") { run throws(ConformanceError) in
            let registration = try await run.registered()
            let first = try await run.requestOptions(username: registration.username).options.challenge
            let second = try await run.requestOptions(username: registration.username).options.challenge
            try expect(first.bytes.count >= 16, "the challenge is \(first.bytes.count) bytes")
            try expect(first != second, "two calls gave the same challenge \(first)")
        },
        check("OPT-AUTH-ALLOW", "request options for a user list that user's credential",
              rule: "WebAuthn L3 §5.5 allowCredentials; FIDO binding ServerPublicKeyCredentialGetOptionsResponse") { run throws(ConformanceError) in
            let registration = try await run.registered()
            let (_, options) = try await run.requestOptions(username: registration.username)
            guard let allowed = options.allowCredentials, !allowed.isEmpty else {
                throw ConformanceError(.skipped, "the server asks for discoverable credentials (no allowCredentials)")
            }
            try expect(allowed.map(\.id.bytes).contains(registration.ceremony.credentialID), "the credential is not allowed")
        },
        check("OPT-AUTH-UV", "request options keep the user verification asked for",
              rule: "WebAuthn L3 §5.5 userVerification; FIDO binding ServerPublicKeyCredentialGetOptionsRequest") { run throws(ConformanceError) in
            let registration = try await run.registered()
            let (_, options) = try await run.requestOptions(username: registration.username, userVerification: .required)
            try expect(
                options.userVerification == .required,
                "userVerification is \(options.userVerification?.rawValue ?? "absent"), not required")
        },
        check("OPT-AUTH-RPID", "rpId, when given, is the RP ID registration used",
              rule: "WebAuthn L3 §5.5 rpId, §5.1.4.1 step 8") { run throws(ConformanceError) in
            let registration = try await run.registered()
            let (_, options) = try await run.requestOptions(username: registration.username)
            if let rpID = options.rpId {
                try expect(rpID == registration.ceremony.rpID, "rpId is \(rpID), registration used \(registration.ceremony.rpID)")
            }
        },
    ]

    /// An options test.
    static func check(
        _ id: String, _ title: String, rule: String,
        _ steps: @escaping @Sendable (ConformanceRun) async throws(ConformanceError) -> Void
    ) -> ConformanceTest {
        ConformanceTest(id, .options, .checked, title, rule: rule) { run throws(ConformanceError) in
            try await steps(run)
            return nil
        }
    }

    /// Fails the test with `reason` unless `condition` holds.
    static func expect(_ condition: Bool, _ reason: @autoclosure () -> String) throws(ConformanceError) {
        guard condition else { throw ConformanceError(.badOptions, reason()) }
    }
}
