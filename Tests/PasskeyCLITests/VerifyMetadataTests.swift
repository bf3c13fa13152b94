import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey verify registration --metadata BLOB --metadata-root PEM` as a user runs it, with the
/// test BLOB of `Vectors/mds/` and the W3C vectors it lists.
@Suite struct VerifyMetadataTests {
    /// Verifies W3C vector `name`'s registration against the test BLOB.
    static func verify(_ name: String, metadata: Bool = true, root: Bool = true) async throws -> ProcessResult {
        let registration = try W3CVector.load(name).registration
        let directory = try TemporaryDirectory()
        let response = URL(fileURLWithPath: directory.path).appendingPathComponent("response.json")
        try Data(registration.registration_response_json.json).write(to: response)
        var arguments = [
            "verify", "registration", "--response", response.path,
            "--challenge=\(registration.inputs.challenge_b64url)", "--origin", "https://example.org",
            "--rp-id", "example.org",
        ]
        if metadata { arguments += ["--metadata", Vectors.root.appendingPathComponent("mds/blob.jwt").path] }
        if root { arguments += ["--metadata-root", Vectors.root.appendingPathComponent("mds/root.pem").path] }
        return try await ChildProcess.run(CLIProcess.executable, arguments)
    }

    @Test func aListedAuthenticatorIsTrusted() async throws {
        let result = try await Self.verify("packed-es256.json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["attestationTrusted"]?.boolValue == true)
    }

    @Test func aRevokedAuthenticatorIsRefusedWithItsCode() async throws {
        let result = try await Self.verify("tpm-es256.json")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.errorLines.count == 1)
        #expect(result.stderr.hasPrefix("authenticator-compromised: "), "\(result.stderr)")
        #expect(result.stderr.contains("REVOKED"))
    }

    @Test func metadataNeedsItsRoot() async throws {
        let result = try await Self.verify("packed-es256.json", root: false)
        #expect(result.status == 64 || result.status == 2, "\(result.status ?? -1) \(result.stderr)")
        #expect(result.stderr.contains("--metadata and --metadata-root go together"))
    }
}
