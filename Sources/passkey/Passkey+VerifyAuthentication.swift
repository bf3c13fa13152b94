import ArgumentParser
import WebAuthn

extension Passkey.Verify {
    /// `passkey verify authentication`.
    struct Authentication: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify an assertion (WebAuthn L3 §7.2) against a stored public key.")

        @OptionGroup var relyingParty: RelyingPartyOptions

        @Option(name: .customLong("public-key"), help: "The credential public key: COSE_Key, base64url.")
        var publicKey: String

        @Option(name: .customLong("sign-count"), help: "The signature counter stored for the credential.")
        var signCount: UInt32 = 0

        @Option(name: .customLong("user-handle"), help: "The user handle of the credential's owner, base64url.")
        var userHandle: String?

        @Flag(
            help: """
                The user was not identified before the ceremony (a discoverable login): the response \
                must carry the user handle (WebAuthn L3 §7.2 step 6).
                """)
        var discoverable = false

        func run() throws {
            try reportingFailures {
                let response = try WebAuthnJSON.decode(
                    AuthenticationResponseJSON.self, from: Input.read(relyingParty.response))
                let key = try decodeOption("--public-key", publicKey)
                let record = CredentialRecord(
                    id: response.rawId.bytes, publicKey: key, signCount: signCount,
                    userHandle: try userHandle.map { text throws(WebAuthnError) in
                        try decodeOption("--user-handle", text)
                    })
                let verified = try relyingParty.relyingParty()
                    .verifyAuthentication(
                        response, challenge: relyingParty.challengeBytes(), credential: record,
                        userIdentified: discoverable ? .byResponse : .beforeCeremony)
                printOutput(Output(verified), json: StandardOutput.printsJSON(forced: relyingParty.format.json))
            }
        }

        /// What `verify authentication` prints: what to update in the credential record (WebAuthn L3
        /// §7.2 steps 22-24).
        struct Output: CommandOutput {
            let credentialId: String
            let signCount: UInt32
            let userVerified: Bool
            let backupState: Bool

            init(_ verified: VerifiedAuthentication) {
                credentialId = Base64URL.encode(verified.credentialID)
                signCount = verified.signCount
                userVerified = verified.userVerified
                backupState = verified.backupState
            }

            var text: String {
                var report = Report()
                report.add("credentialId", .text(credentialId))
                report.add("signCount", .number(Int(signCount)))
                report.add("userVerified", .flag(userVerified))
                report.add("backupState", .flag(backupState))
                return "Assertion verified; store the new signCount and backupState.\n" + report.text
            }
        }
    }
}
