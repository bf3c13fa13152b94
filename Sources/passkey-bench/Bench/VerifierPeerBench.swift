import Foundation
import PasskeyAuthenticator
import Subprocess
import SystemPackage
import WebAuthn

/// `passkey-bench --compare-verifiers`: one assertion, verified by SoftPasskey's
/// ``RelyingParty`` and by the verifiers relying parties use elsewhere, in the same run (issue
/// 30): py_webauthn 3 in the test virtual environment (`Tests/Interop/verifier_peer_bench.py`)
/// and duo-labs/webauthn in Go (`Tests/Interop/go_webauthn_bench`, built here with Debian's
/// `golang-go` against Debian's `golang-github-duo-labs-webauthn-dev`, in GOPATH mode: no module
/// is downloaded).
///
/// Every side starts from the same bytes, the assertion's `AuthenticationResponseJSON` text, and
/// makes its library's own per-assertion call on it: ours decodes it and runs
/// ``RelyingParty/verifyAuthentication(_:challenge:credential:allowCredentials:userIdentified:)``;
/// the peers' calls are documented in their sources. Before measuring, each peer must accept the
/// assertion and refuse it with one signature byte changed, so no figure is of a verifier that
/// checks nothing.
struct VerifierPeerBench {
    let seconds: Double
    let rounds: Int
    /// The Python interpreter of the virtual environment that has py_webauthn.
    let python: String
    /// Where the assertion is written and the Go program built.
    let scratch: String
    /// The folder of `verifier_peer_bench.py` and `go_webauthn_bench/`.
    var peers = "Tests/Interop"
    /// Whether a figure, by name, is measured (`passkey-bench --only`).
    var wants: (String) -> Bool = { _ in true }

    /// Debian's Go source tree, the GOPATH the Go peer is built in.
    static let goPath = "/usr/share/gocode"

    init(
        seconds: Double, rounds: Int, python: String, scratch: String, peers: String = "Tests/Interop",
        wants: @escaping (String) -> Bool = { _ in true }
    ) {
        self.seconds = seconds
        self.rounds = rounds
        self.python = python
        self.scratch = scratch
        self.peers = peers
        self.wants = wants
    }

    /// `py-webauthn-verify`, `rp-verify-vs-py-webauthn`, `go-webauthn-verify`,
    /// `rp-verify-vs-go-webauthn`.
    ///
    /// - Throws: ``BenchChildFailure`` when a peer is missing, cannot be built, refuses the
    ///   assertion or accepts a tampered one.
    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let assertion = try await Assertion.make()
        let fixture = scratch + "/verifier-assertion.json"
        let tampered = scratch + "/verifier-assertion-tampered.json"
        try assertion.fixture(tampered: false).write(to: URL(fileURLWithPath: fixture))
        try assertion.fixture(tampered: true).write(to: URL(fileURLWithPath: tampered))
        let ours = try assertion.verification()
        var peers: [(name: String, label: String, target: Double, command: [String])] = []
        if wants("rp-verify-vs-py-webauthn") {
            peers.append(
                (
                    "py-webauthn", "py_webauthn 3 verify_authentication_response (Python)", 2,
                    [python, self.peers + "/verifier_peer_bench.py"]
                ))
        }
        if wants("rp-verify-vs-go-webauthn") {
            progress("building the Go verifier (duo-labs/webauthn from \(Self.goPath))")
            peers.append(
                ("go-webauthn", "duo-labs/webauthn ValidateLogin (Go, Debian)", 1.4, [try await buildGoPeer()]))
        }
        var figures: [BenchFigure] = []
        for peer in peers {
            try await Self.requireVerdicts(peer.command, accepting: fixture, refusing: tampered)
            progress("assertion verification, beside \(peer.name)")
            figures += try await BenchFigure.pairedRates(
                "rp-verify-vs-\(peer.name)", "relying-party verification of an assertion (JSON in)",
                baseline: "\(peer.name)-verify", baselineLabel: peer.label, target: peer.target, rounds: rounds,
                { try await Throughput.rate(seconds: seconds, ours) },
                against: { try await Self.rate(peer.command, fixture, seconds: seconds) })
        }
        return figures
    }

    /// The Go peer, built into `scratch` offline (GOPATH mode, `GOPROXY=off`).
    private func buildGoPeer() async throws -> String {
        let binary = scratch + "/go_webauthn_bench"
        let result = try await Subprocess.run(
            .name("go"), arguments: ["build", "-o", binary, peers + "/go_webauthn_bench/main.go"],
            environment: .inherit.updating([
                "GO111MODULE": "off", "GOPATH": Self.goPath, "GOPROXY": "off", "GOFLAGS": "",
            ]),
            output: .string(limit: 65536), error: .string(limit: 65536))
        guard result.terminationStatus.isSuccess else {
            throw BenchChildFailure(
                reason: "go build of the duo-labs/webauthn peer (apt-get install golang-go "
                    + "golang-github-duo-labs-webauthn-dev): \(Self.lastLine(result.standardError))")
        }
        return binary
    }

    /// Checks that the peer accepts `fixture` and refuses `tampered`.
    private static func requireVerdicts(_ command: [String], accepting fixture: String, refusing tampered: String)
        async throws
    {
        let accepted = try await run(command + ["check", fixture])
        guard accepted.exitCode == 0 else {
            throw BenchChildFailure(
                reason: "\(command.joined(separator: " ")) refuses the assertion: \(lastLine(accepted.error))")
        }
        let refused = try await run(command + ["check", tampered])
        guard refused.exitCode == 1 else {
            throw BenchChildFailure(reason: "\(command.joined(separator: " ")) does not refuse a tampered assertion")
        }
    }

    /// The peer's verifications per second over `seconds`.
    private static func rate(_ command: [String], _ fixture: String, seconds: Double) async throws -> Double {
        let result = try await run(command + ["rate", fixture, String(seconds)])
        guard result.exitCode == 0, let rate = Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines)),
            rate > 0
        else {
            throw BenchChildFailure(reason: "\(command.joined(separator: " ")) rate: \(lastLine(result.error))")
        }
        return rate
    }

    /// What a peer's run printed, and its exit code (`nil` when a signal ended it).
    private struct PeerRun {
        let exitCode: Int?
        let output: String
        let error: String
    }

    private static func run(_ command: [String]) async throws -> PeerRun {
        let result = try await Subprocess.run(
            .path(FilePath(command[0])), arguments: Arguments(Array(command.dropFirst())),
            output: .string(limit: 4096), error: .string(limit: 65536))
        var exitCode: Int?
        if case .exited(let code) = result.terminationStatus {
            exitCode = Int(code)
        }
        return PeerRun(exitCode: exitCode, output: result.standardOutput, error: result.standardError)
    }

    private static func lastLine(_ text: String?) -> String {
        text?.split(separator: "\n").last.map(String.init) ?? "no output"
    }

    /// One assertion by SoftPasskey's platform profile (counter 0, so it verifies again and
    /// again), and what a relying party knows to verify it.
    private struct Assertion {
        static let origin = "https://bench.example"
        let json: [UInt8]
        let challenge: [UInt8]
        let record: CredentialRecord
        let userHandle: [UInt8]

        static func make() async throws -> Assertion {
            let origin = try WebOrigin(Self.origin)
            let client = WebAuthnClient(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
            let userHandle = Array("verifier-bench-user".utf8)
            let challenge = SecureRandom.bytes(32)
            let registration = try RelyingParty(id: origin.host).verifyRegistration(
                try await client.create(
                    PublicKeyCredentialCreationOptionsJSON(
                        rp: PublicKeyCredentialRpEntity(name: "Bench", id: origin.host),
                        user: PublicKeyCredentialUserEntityJSON(
                            id: Base64URL(userHandle), name: "bench", displayName: "Bench"),
                        challenge: Base64URL(challenge), pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)]),
                    origin: origin),
                challenge: challenge)
            let response = try await client.get(
                PublicKeyCredentialRequestOptionsJSON(challenge: Base64URL(challenge), rpId: origin.host),
                origin: origin)
            return Assertion(
                json: WebAuthnJSON.encode(response), challenge: challenge,
                record: registration.record(userHandle: userHandle), userHandle: userHandle)
        }

        /// Ours: the JSON decoded and verified, as a relying party does with a request body.
        func verification() throws -> () async throws -> Void {
            let relyingParty = RelyingParty(id: "bench.example")
            let verify = { [json, challenge, record] in
                let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: json)
                _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: record)
            }
            try verify()
            return verify
        }

        /// The peers' input file (`verifier_peer_bench.py` documents it); `tampered` changes
        /// one byte of the signature.
        func fixture(tampered: Bool) throws -> Data {
            var response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: json)
            if tampered {
                var signature = response.response.signature.bytes
                signature[signature.count / 2] ^= 0x01
                response.response.signature = Base64URL(signature)
            }
            return Data(
                WebAuthnJSON.encode(
                    Fixture(
                        response: response, challenge: Base64URL(challenge),
                        credentialPublicKey: Base64URL(record.publicKey), userHandle: Base64URL(userHandle),
                        rpId: "bench.example", origin: Self.origin, signCount: record.signCount)))
        }
    }

    /// What the peers read.
    private struct Fixture: Encodable {
        let response: AuthenticationResponseJSON
        let challenge: Base64URL
        let credentialPublicKey: Base64URL
        let userHandle: Base64URL
        let rpId: String
        let origin: String
        let signCount: UInt32
    }
}
