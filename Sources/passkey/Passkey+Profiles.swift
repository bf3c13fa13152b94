import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey profiles`: the authenticator profiles `--profile` takes.
    struct Profiles: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the authenticator profiles --profile takes: what each reports and how it behaves.")

        @OptionGroup var format: OutputOptions

        func run() {
            let rows = AuthenticatorProfile.builtIn.values.sorted { $0.name < $1.name }.map(Row.init)
            if format.json {
                printJSON(rows)
            } else {
                for row in rows {
                    print(row.line)
                }
            }
        }

        /// One profile as `profiles` prints it.
        struct Row: Encodable {
            let name: String
            let aaguid: String
            let attachment: String
            let transports: [String]
            let algorithms: [Int]
            let alwaysDiscoverable: Bool
            let alwaysVerifiesUser: Bool
            let backupEligible: Bool
            let backupState: Bool
            let countsSignatures: Bool
            let initialSignCount: UInt32
            let credentialIDFromPublicKey: Bool
            let attestation: String

            init(_ profile: AuthenticatorProfile) {
                name = profile.name
                aaguid = profile.aaguid.description
                attachment = profile.attachment.rawValue
                transports = profile.transports.map(\.rawValue)
                algorithms = profile.algorithms.map(\.rawValue)
                alwaysDiscoverable = profile.alwaysDiscoverable
                alwaysVerifiesUser = profile.alwaysVerifiesUser
                backupEligible = profile.backupEligible
                backupState = profile.backupState
                countsSignatures = profile.countsSignatures
                initialSignCount = profile.initialSignCount
                credentialIDFromPublicKey = profile.credentialIDFromPublicKey
                attestation =
                    profile.batchAttests ? "packed (x5c batch)" : profile.selfAttests ? "packed (self)" : "none"
            }

            var line: String {
                let flags = [
                    backupEligible ? "BE" : nil, backupState ? "BS" : nil,
                    countsSignatures ? "counter from \(initialSignCount)" : "counter 0",
                    credentialIDFromPublicKey ? "id=SHA-256(key)" : nil,
                ].compactMap { $0 }.joined(separator: " ")
                return name.padding(toLength: 24, withPad: " ", startingAt: 0) + "\(aaguid)  \(attachment) "
                    + "(\(transports.joined(separator: ", ")))  algs \(algorithms.map(String.init).joined(separator: " "))"
                    + "  \(flags)  attestation \(attestation)"
            }
        }
    }
}
