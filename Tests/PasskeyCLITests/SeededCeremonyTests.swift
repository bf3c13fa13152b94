import TestSupport
import Testing

/// The built `passkey` in seeded mode and with related origins, as a script runs it.
@Suite struct SeededCeremonyTests {
    static let seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    static let environment = ChildEnvironment.inheriting(["PASSKEY_PASSPHRASE": "", "PASSKEY_SEED": ""])

    static func creationOptions(rpID: String) -> String {
        #"{"rp":{"id":"\#(rpID)","name":"Example"},"user":{"id":"dXNlci1hZGE","name":"ada","displayName":"Ada"},"#
            + #""challenge":"Y3JlYXRlLWNoYWxsZW5nZQ","pubKeyCredParams":[{"type":"public-key","alg":-7}],"#
            + #""authenticatorSelection":{"residentKey":"required"},"attestation":"direct"}"#
    }

    /// `create` then `get` in a fresh store; both standard outputs.
    static func ceremony(in directory: TemporaryDirectory, store: String, profile: String, seeded: Bool)
        async throws -> String
    {
        let creation = directory.write("create.json", creationOptions(rpID: "example.com"))
        let request = directory.write("get.json", #"{"challenge":"Z2V0LWNoYWxsZW5nZQ","rpId":"example.com"}"#)
        let common =
            ["--origin", "https://example.com", "--store", directory.appending(store), "--profile", profile]
            + (seeded ? ["--seed", seed] : [])
        let created = try await ChildProcess.run(
            CLIProcess.executable, ["create", "--options", creation] + common, environment: environment)
        #expect(created.status == 0, "\(created)")
        let got = try await ChildProcess.run(
            CLIProcess.executable, ["get", "--options", request] + common, environment: environment)
        #expect(got.status == 0, "\(got)")
        return created.stdout + got.stdout
    }

    @Test(arguments: ["platform", "security-key"])
    func twoSeededRunsInFreshStoresPrintTheSameBytes(_ profile: String) async throws {
        let directory = try TemporaryDirectory(prefix: "passkey-seeded")
        defer { directory.remove() }
        let first = try await Self.ceremony(in: directory, store: "one", profile: profile, seeded: true)
        let second = try await Self.ceremony(in: directory, store: "two", profile: profile, seeded: true)
        #expect(first.contains(#""signature":"#))
        #expect(first == second)
        // The control: without --seed the runs differ.
        let unseeded = try await Self.ceremony(in: directory, store: "three", profile: profile, seeded: false)
        let again = try await Self.ceremony(in: directory, store: "four", profile: profile, seeded: false)
        #expect(unseeded != again)
    }

    /// `--related-origins` makes `create` fetch the RP ID's `/.well-known/webauthn`; without it
    /// the origin is refused at once. (`.invalid` never resolves, so the fetch fails: the
    /// document's verdicts are `PasskeyKitTests`' `RelatedOriginsTests`.)
    @Test func relatedOriginsAreLookedUpOnlyWithTheFlag() async throws {
        let directory = try TemporaryDirectory(prefix: "passkey-related")
        defer { directory.remove() }
        let creation = directory.write("create.json", Self.creationOptions(rpID: "example.invalid"))
        let arguments = [
            "create", "--origin", "https://shop.example.net", "--store", directory.appending("store"), "--options",
            creation,
        ]
        let plain = try await ChildProcess.run(CLIProcess.executable, arguments, environment: Self.environment)
        #expect(plain.status == 1 && plain.stdout.isEmpty)
        #expect(plain.stderr.hasPrefix("SecurityError: the RP ID \"example.invalid\" is neither"), "\(plain)")
        let related = try await ChildProcess.run(
            CLIProcess.executable, arguments + ["--related-origins"], environment: Self.environment)
        #expect(related.status == 1 && related.stdout.isEmpty)
        #expect(
            related.stderr.hasPrefix(
                "SecurityError: https://example.invalid/.well-known/webauthn could not be fetched"), "\(related)")
    }
}
