import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey set`: a credential's counter and backup flags, to act out a rolled-back or
    /// restored authenticator (the CLI form of WebDriver's Set Credential Properties).
    struct SetProperties: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a passkey's signature counter or backup flags (to test a relying party's clone checks).",
            discussion: "A real authenticator never lowers its counter or changes BE; a relying party must refuse "
                + "the first (WebAuthn L3 §6.1.1) and the second (§6.1.3), and accept and record a BS change.")

        @OptionGroup var store: StoreOptions

        @Argument(
            help: "The credential ID (base64url), as `passkey list` prints it; one that starts with - goes after --.")
        var credentialID: String

        @Option(name: .customLong("sign-count"), help: "The new signature counter.")
        var signCount: UInt32?

        @Option(name: .customLong("backup-eligible"), help: "The BE flag: true or false.")
        var backupEligible: Bool?

        @Option(name: .customLong("backup-state"), help: "The BS flag: true or false.")
        var backupState: Bool?

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard signCount != nil || backupEligible != nil || backupState != nil else {
                throw ValidationError("give --sign-count, --backup-eligible or --backup-state")
            }
        }

        func run() async throws {
            let changed = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let opened = try await store.open()
                let id = try credentialIDBytes(credentialID)
                do {
                    guard let stored = try await opened.credential(id: id) else {
                        throw WebAuthnClientError(.notAllowed, "no passkey \(credentialID) in the store")
                    }
                    let changed = try stored.changing(
                        signCount: signCount, backupEligible: backupEligible, backupState: backupState)
                    try await opened.update(changed)
                    return changed
                } catch let error as WebAuthnClientError {
                    throw error
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            printOutput(Changed(set: ListedPasskey(changed)), json: format.json)
        }

        /// What `set` prints: the passkey as it now is (as `list` shows it).
        struct Changed: CommandOutput {
            let set: ListedPasskey

            var text: String {
                "set \(set.id) signCount=\(set.signCount) backupEligible=\(set.backupEligible) "
                    + "backupState=\(set.backupState)"
            }
        }
    }

    /// `passkey clone`: copy a passkey, key and counter, into another store.
    struct Clone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy a passkey with its key and counter into another store: a cloned authenticator.",
            discussion: "Once both copies sign, a relying party that checks counters (WebAuthn L3 §6.1.1) sees one "
                + "of them go backwards. The copy is sealed under the other store's key (PASSKEY_PASSPHRASE or its "
                + "key file).")

        @OptionGroup var store: StoreOptions

        @Argument(help: "The credential ID (base64url); one that starts with - goes after --.")
        var credentialID: String

        @Option(help: "The store directory to copy into (created if missing).")
        var to: String

        @OptionGroup var format: OutputOptions

        func run() async throws {
            let copy = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let source = try await store.open()
                let id = try credentialIDBytes(credentialID)
                let destination: FileCredentialStore
                do {
                    destination = try await FileCredentialStore(
                        directory: to,
                        passphrase: StoreOptions.passphrase(environment: ProcessInfo.processInfo.environment))
                } catch {
                    throw WebAuthnClientError(.notAllowed, "the credential store \(to) cannot be opened: \(error)")
                }
                do {
                    return try await source.copyCredential(id: id, to: destination)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            printOutput(Cloned(cloned: ListedPasskey(copy), to: to), json: format.json)
        }

        /// What `clone` prints: the copy (as `list` shows it) and the store it went to.
        struct Cloned: CommandOutput {
            let cloned: ListedPasskey
            let to: String

            var text: String { "cloned \(cloned.id) to \(to) signCount=\(cloned.signCount)" }
        }
    }
}

/// A credential ID argument's bytes, or `SyntaxError`.
private func credentialIDBytes(_ text: String) throws(WebAuthnClientError) -> [UInt8] {
    do {
        return try decodeOption("credential ID", text)
    } catch {
        throw WebAuthnClientError(.syntax, error.reason)
    }
}
