import ArgumentParser
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey delete`: removes one passkey, or all of one relying party's.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a passkey by credential ID, or every passkey of a relying party (--rp ID --all).")

        @OptionGroup var store: StoreOptions

        @Argument(
            help: "The credential ID (base64url), as `passkey list` prints it; one that starts with - goes after --.")
        var credentialID: String?

        @Option(help: "With --all: the relying party whose passkeys to delete.")
        var rp: String?

        @Flag(help: "Delete every passkey of --rp.")
        var all = false

        @OptionGroup var format: OutputOptions

        func validate() throws {
            switch (credentialID, rp, all) {
            case (.some, nil, false), (nil, .some, true):
                return
            default:
                throw ValidationError("give a credential ID, or --rp ID --all")
            }
        }

        func run() async throws {
            let deleted = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let opened = try await store.open()
                do {
                    let ids: [[UInt8]]
                    if let credentialID {
                        ids = [try decodeOption("credential ID", credentialID)]
                    } else {
                        // validate() requires --rp with --all.
                        ids = try await opened.credentials(rpID: rp!).credentials.map(\.id)
                    }
                    for id in ids {
                        try await opened.delete(id: id)
                    }
                    return ids
                } catch let error as WebAuthnError {
                    throw WebAuthnClientError(.syntax, error.reason)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            printOutput(Deleted(deleted: deleted.map(Base64URL.encode)), json: format.json)
        }

        /// What `delete` prints: the credential IDs deleted, a line each.
        struct Deleted: CommandOutput {
            let deleted: [String]

            var text: String { deleted.map { "deleted \($0)" }.joined(separator: "\n") }
        }
    }
}
