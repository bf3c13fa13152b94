import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey import`: passkeys from a Credential Exchange Format export (`--cxf`), or one
    /// credential from its private key (`--pkcs8`), as the W3C WebDriver Add Credential command
    /// (and Chrome's DevTools) takes one.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import passkeys from a CXF export (--cxf) or one from its PKCS#8 private key (--pkcs8).",
            discussion: "Keys are sealed into the store like the store's own; they must be P-256, Ed25519 or RSA. "
                + "A sealed export opens with $PASSKEY_EXPORT_PASSPHRASE or --passphrase-file. An import is all "
                + "or nothing: a credential ID already stored refuses the whole export.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var passphrase: ExportPassphraseOptions

        @Option(help: "A Credential Exchange Format export (sealed or plain), or - for standard input.")
        var cxf: String?

        @Option(help: "The PKCS#8 private key file (DER or PEM), or - for standard input.")
        var pkcs8: String?

        @Option(name: .customLong("rp-id"), help: "With --pkcs8: the relying party ID the passkey is for.")
        var rpID: String?

        @Option(name: .customLong("credential-id"), help: "The credential ID, base64url; random 16 bytes by default.")
        var credentialID: String?

        @Option(name: .customLong("user-handle"), help: "The user handle, base64url (required for a discoverable one).")
        var userHandle: String?

        @Option(name: .customLong("user-name"), help: "The user's account name.")
        var userName = ""

        @Option(name: .customLong("sign-count"), help: "The signature counter to start from.")
        var signCount: UInt32 = 0

        @Option(help: "The profile the passkeys behave by; for --cxf one without a counter (default platform).")
        var profile: AuthenticatorProfile?

        @Option(name: .customLong("rsa-algorithm"), help: "For an RSA key: -257 (RS256) or -37 (PS256).")
        var rsaAlgorithm: Int = COSEAlgorithm.rs256.rawValue

        @Flag(help: "A discoverable (resident) credential.")
        var resident = false

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard (cxf == nil) != (pkcs8 == nil) else {
                throw ValidationError("give --cxf FILE or --pkcs8 FILE")
            }
            guard pkcs8 == nil || rpID != nil else {
                throw ValidationError("--pkcs8 needs --rp-id")
            }
        }

        func run() async throws {
            if let cxf {
                try await importExchange(cxf)
                return
            }
            let imported = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let template = try template()
                let key = try privateKey()
                let opened = try await store.open()
                do {
                    return try await opened.importCredential(privateKey: key, as: template)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            printOutput(Imported(imported: [ListedPasskey(imported)]), json: format.json)
        }

        /// What `import` prints: the passkeys imported (as `list` shows them), a line each.
        struct Imported: CommandOutput {
            let imported: [ListedPasskey]

            var text: String {
                imported.map { "imported \($0.id) for \($0.rpId) (\($0.algorithm))" }.joined(separator: "\n")
            }
        }

        /// Imports every passkey of a CXF export, all or none.
        private func importExchange(_ path: String) async throws {
            let imported = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let bytes: [UInt8]
                do {
                    bytes = try Input.read(path)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
                let secret = try passphrase.passphrase()
                let opened = try await store.open()
                do {
                    let exchange = try SealedCredentialExchange.open(bytes, passphrase: secret)
                    return try await opened.importCredentialExchange(exchange, profile: profile ?? .platform)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(path): \(error)")
                }
            }
            printOutput(Imported(imported: imported.map(ListedPasskey.init)), json: format.json)
        }

        private func template() throws(WebAuthnClientError) -> CredentialTemplate {
            let profile = profile ?? .securityKey
            do {
                let handle = try userHandle.map { text throws(WebAuthnError) in try decodeOption("--user-handle", text)
                }
                guard !resident || handle != nil else {
                    throw WebAuthnClientError(.syntax, "a --resident passkey needs --user-handle")
                }
                return CredentialTemplate(
                    id: try credentialID.map { text throws(WebAuthnError) in try decodeOption("--credential-id", text) }
                        ?? SecureRandom.bytes(16),
                    rpID: rpID ?? "", userHandle: handle ?? [], userName: userName, userDisplayName: userName,
                    profile: profile.name, backupEligible: profile.backupEligible, backupState: profile.backupState,
                    discoverable: resident, signCount: signCount)
            } catch let error as WebAuthnClientError {
                throw error
            } catch let error as WebAuthnError {
                throw WebAuthnClientError(.syntax, error.reason)
            } catch {
                throw WebAuthnClientError(.syntax, "\(error)")
            }
        }

        private func privateKey() throws(WebAuthnClientError) -> SigningKey {
            try PrivateKeyFile.read(pkcs8 ?? "-", rsaAlgorithm: rsa())
        }

        private func rsa() throws(WebAuthnClientError) -> COSEAlgorithm {
            guard let algorithm = COSEAlgorithm(rawValue: rsaAlgorithm), SigningKey.rsaAlgorithms.contains(algorithm)
            else {
                throw WebAuthnClientError(.syntax, "--rsa-algorithm is -257 (RS256) or -37 (PS256)")
            }
            return algorithm
        }
    }
}
