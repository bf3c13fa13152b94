import ArgumentParser
import Foundation
import PasskeyConformance
import WebAuthn

extension Passkey.Verify {
    /// `passkey verify registration`.
    struct Registration: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a registration (WebAuthn L3 §7.1) and print the credential to store.")

        @OptionGroup var relyingParty: RelyingPartyOptions

        @Option(
            name: .customLong("trust-anchor"),
            help: "A PEM file of attestation trust anchors, for every format (repeatable).")
        var trustAnchors: [String] = []

        @Option(name: .customLong("at"), help: "Check certificates as of this ISO 8601 instant (default: now).")
        var time: String?

        @Option(help: "A FIDO Metadata Service v3 BLOB (JWT): listed authenticators chain to its roots.")
        var metadata: String?

        @Option(
            name: .customLong("metadata-url"),
            help: "Fetch the metadata BLOB from this URL instead (passkey conformance mds serve, or the FIDO MDS).")
        var metadataURL: String?

        @Option(name: .customLong("metadata-root"), help: "The PEM root the metadata BLOB must chain to.")
        var metadataRoot: String?

        func validate() throws {
            guard metadata == nil || metadataURL == nil else {
                throw ValidationError("--metadata and --metadata-url exclude each other")
            }
            guard (metadata == nil && metadataURL == nil) == (metadataRoot == nil) else {
                throw ValidationError("--metadata and --metadata-root go together")
            }
        }

        func run() async throws {
            let fetched = try await fetchMetadata()
            try reportingFailures {
                let response = try WebAuthnJSON.decode(
                    RegistrationResponseJSON.self, from: Input.read(relyingParty.response))
                var anchors: [X509Certificate] = []
                for path in trustAnchors {
                    anchors += try X509Certificate.certificates(pem: String(decoding: Input.read(path), as: UTF8.self))
                }
                let anchorsByFormat = Dictionary(
                    uniqueKeysWithValues: RelyingParty.supportedAttestationFormats.map { ($0, anchors) })
                var verifier = relyingParty.relyingParty(trustAnchors: anchors.isEmpty ? [:] : anchorsByFormat)
                verifier.metadata = try fetched ?? loadMetadata()
                let verified = try verifier.verifyRegistration(
                    response, challenge: relyingParty.challengeBytes(), at: instant())
                printOutput(Output(verified), json: StandardOutput.printsJSON(forced: relyingParty.format.json))
            }
        }

        /// The metadata BLOB, verified to its root as of `--at`.
        private func loadMetadata() throws -> MetadataBLOB? {
            guard let metadata, let metadataRoot else { return nil }
            return try MetadataBLOB(jwt: Input.read(metadata), root: Self.root(metadataRoot), at: instant())
        }

        /// The BLOB at `--metadata-url`, through ``MetadataService``, verified to its root as of `--at`.
        private func fetchMetadata() async throws -> MetadataBLOB? {
            guard let metadataURL, let metadataRoot else { return nil }
            let (root, time) = try reportingFailures { (try Self.root(metadataRoot), try instant()) }
            do {
                return try await MetadataService(url: metadataURL, root: root, now: { time }).blob()
            } catch {
                printError(error.description)
                throw ExitCode(1)
            }
        }

        /// The first certificate of the PEM file at `path`.
        private static func root(_ path: String) throws -> X509Certificate {
            let roots = try X509Certificate.certificates(pem: String(decoding: Input.read(path), as: UTF8.self))
            guard let root = roots.first else {
                throw CLIError.unrecognized("--metadata-root \(path) holds no PEM certificate")
            }
            return root
        }

        private func instant() throws -> Date {
            guard let time else { return Date() }
            guard let date = try? Date(time, strategy: .iso8601) else {
                throw CLIError.unrecognized("--at \(time) is not an ISO 8601 instant such as 2026-01-01T00:00:00Z")
            }
            return date
        }

        /// What `verify registration` prints: the credential record to store (WebAuthn L3 §7.1 step 27).
        struct Output: CommandOutput {
            let credentialId: String
            let publicKey: String
            let algorithm: Int
            let signCount: UInt32
            let aaguid: String
            let format: String
            let attestationType: String
            let attestationTrusted: Bool
            /// The attestation certificates, leaf first, each DER in base64url.
            let trustPath: [String]
            let backupEligible: Bool
            let backupState: Bool
            let userVerified: Bool

            init(_ verified: VerifiedRegistration) {
                credentialId = Base64URL.encode(verified.credentialID)
                publicKey = Base64URL.encode(verified.credentialPublicKey)
                algorithm = verified.algorithm.rawValue
                signCount = verified.signCount
                aaguid = verified.aaguid.description
                format = verified.format.rawValue
                attestationType = verified.attestationType.rawValue
                attestationTrusted = verified.isTrusted
                trustPath = verified.trustPath.map { Base64URL.encode($0.derBytes) }
                backupEligible = verified.backupEligible
                backupState = verified.backupState
                userVerified = verified.userVerified
            }

            var text: String {
                var report = Report()
                report.add("credentialId", .text(credentialId))
                report.add("publicKey", .text(publicKey))
                report.add("algorithm", Report.algorithm(algorithm))
                report.add("signCount", .number(Int(signCount)))
                report.add("aaguid", .text(aaguid))
                report.add("format", .text(format))
                report.add("attestationType", .text(attestationType))
                report.add("attestationTrusted", .flag(attestationTrusted))
                report.add("trustPath", .text("\(trustPath.count) certificates (--json shows them)"))
                report.add("backupEligible", .flag(backupEligible))
                report.add("backupState", .flag(backupState))
                report.add("userVerified", .flag(userVerified))
                return "Registration verified; store this credential.\n" + report.text
            }
        }
    }
}
