import ArgumentParser
import Foundation
import Testing
import WebAuthn

@testable import passkey

/// The `passkey` command line as a user runs it: arguments in, standard output, standard error and
/// exit status out (exit tests run each command in a child process).
@Suite struct PasskeyCLITests {
    /// A file of `Examples/w3c-packed-es256`, found from this file's path.
    static func example(_ name: String, filePath: String = #filePath) -> String {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/w3c-packed-es256/\(name)").path
    }

    @Test func parsesVerifyOptions() throws {
        let command = try Passkey.parseAsRoot([
            "verify", "registration", "--response", "r.json", "--challenge", "AAAA", "--origin", "https://a.example",
            "--origin", "https://b.example", "--rp-id", "a.example", "--require-uv",
        ])
        let registration = try #require(command as? Passkey.Verify.Registration)
        #expect(registration.relyingParty.origins == ["https://a.example", "https://b.example"])
        #expect(registration.relyingParty.requireUserVerification)
    }

    @Test func tenantServeTakesTrustedProxies() throws {
        let command = try Passkey.parseAsRoot([
            "tenant", "serve", "--trusted-proxy", "127.0.0.1", "--trusted-proxy", "10.0.0.0/8",
        ])
        let serve = try #require(command as? Passkey.Tenant.Serve)
        #expect(serve.trustedProxies == ["127.0.0.1", "10.0.0.0/8"])
        #expect(throws: (any Error).self) { try Passkey.parseAsRoot(["tenant", "serve", "--trusted-proxy", "nope"]) }
    }

    @Test func tenantServeTakesUpstreamConnections() throws {
        let option = "idp=oidc,issuer=https://idp.example.com/,client_id=abc,client_secret_env=IDP_SECRET"
        let command = try Passkey.parseAsRoot([
            "tenant", "serve", "--connection", option, "--cacert", "/ca.pem",
        ])
        let serve = try #require(command as? Passkey.Tenant.Serve)
        #expect(serve.connections == [option])
        #expect(serve.trust.caBundlePath == "/ca.pem")
        for bad in [
            "idp=saml,issuer=https://idp.example.com/,client_id=abc,client_secret_env=V",
            "idp=oidc,issuer=http://idp.example.com/,client_id=abc,client_secret_env=V",
            "idp=oidc,issuer=https://idp.example.com/,client_id=abc,client_secret=inline",
        ] {
            #expect(throws: (any Error).self) { try Passkey.parseAsRoot(["tenant", "serve", "--connection", bad]) }
        }
    }

    @Test func verifyRequiresAChallenge() {
        #expect(throws: (any Error).self) {
            _ = try Passkey.parseAsRoot([
                "verify", "registration", "--response", "r.json", "--origin", "o", "--rp-id", "r",
            ])
        }
    }

    @Test func inspectRecognizesBareParts() throws {
        let authData = "bfabc37432958b063360d3ad6461c9c4735ae7f8edd46592a5e0f01452b2e4b50d00000000"
        guard case .authenticatorData(let parsed) = try InspectedInput(Array(authData.utf8)) else {
            Issue.record("hex authenticator data not recognized")
            return
        }
        #expect(parsed.flags == [.userPresent, .userVerified, .backupEligible])

        let response = try JSONDecoder().decode(
            [String: JSONValue].self,
            from: Data(contentsOf: URL(fileURLWithPath: Self.example("registration.json"))))
        let inner = try #require(response["response"]?.objectValue)
        let clientData = try #require(inner["clientDataJSON"]?.stringValue)
        let attestation = try #require(inner["attestationObject"]?.stringValue)
        guard case .clientData(let decoded) = try InspectedInput(Array(clientData.utf8)) else {
            Issue.record("base64url client data not recognized")
            return
        }
        #expect(decoded.origin == "https://example.org")
        guard case .attestationObject(let object) = try InspectedInput(Array(" \(attestation)\n".utf8)) else {
            Issue.record("base64url attestation object not recognized")
            return
        }
        #expect(object.format == .packed)
        #expect(throws: WebAuthnError(.malformedAuthenticatorData, "")) { try InspectedInput(Array("00ff".utf8)) }
    }

    @Test func inspectDecodesTheExample() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await Passkey.main(["inspect", "--json", PasskeyCLITests.example("registration.json")])
        }
        let text = String(decoding: result.standardOutputContent, as: UTF8.self)
        #expect(text.contains(#""fmt":"packed""#))
        #expect(text.contains(#""flags":["UP","UV","BE","AT"]"#))
        #expect(text.contains(#""aaguid":"876ca4f5-2071-c3e9-b255-09ef2cdf7ed6""#))
    }

    @Test func verifiesTheExampleRegistration() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            await Passkey.main([
                "verify", "registration", "--response", PasskeyCLITests.example("registration.json"),
                "--challenge", "wRhKX934BF4T3Ef1S2H1pla2ZrWQGPFthw6SVumVIBI", "--origin", "https://example.org",
                "--rp-id", "example.org", "--trust-anchor", PasskeyCLITests.example("attestation-root.pem"),
            ])
        }
        let output = try JSONDecoder().decode([String: JSONValue].self, from: Data(result.standardOutputContent))
        #expect(output["format"] == .string("packed"))
        #expect(output["attestationType"] == .string("basic"))
        #expect(output["attestationTrusted"] == .bool(true))
        #expect(output["algorithm"] == .number(-7))
        guard case .array(let path) = output["trustPath"] else {
            Issue.record("no trustPath array")
            return
        }
        #expect(path.count == 1)
    }

    @Test func aFailedCheckIsOneLineAndExitStatus1() async throws {
        let result = try await #require(
            processExitsWith: .exitCode(1), observing: [\.standardErrorContent]
        ) {
            await Passkey.main([
                "verify", "registration", "--response", PasskeyCLITests.example("registration.json"),
                "--challenge", "wRhKX934BF4T3Ef1S2H1pla2ZrWQGPFthw6SVumVIBI", "--origin", "https://evil.example",
                "--rp-id", "example.org",
            ])
        }
        // That standard output stays empty is checked on the real binary by Tests/Interop (the exit-test
        // harness shares the child's standard output).
        let error = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(error.hasPrefix("wrong-origin: "))
        #expect(error.split(separator: "\n").count == 1)
    }

    @Test func unparsableInputExitsWithStatus2() async throws {
        let result = try await #require(
            processExitsWith: .exitCode(2), observing: [\.standardErrorContent]
        ) {
            await Passkey.main(["inspect", PasskeyCLITests.example("README.md")])
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).hasPrefix("unrecognized-input: "))
    }
}
