import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey import --pkcs8`: a credential from its private key, as the W3C WebDriver Add
    /// Credential command (and Chrome's DevTools) takes one.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a passkey from its PKCS#8 private key (DER, or PEM \"PRIVATE KEY\").",
            discussion: "The key is sealed into the store like the store's own; it must be P-256, Ed25519 or RSA.")

        @OptionGroup var store: StoreOptions

        @Option(help: "The PKCS#8 private key file (DER or PEM), or - for standard input.")
        var pkcs8: String

        @Option(name: .customLong("rp-id"), help: "The relying party ID the passkey is for.")
        var rpID: String

        @Option(name: .customLong("credential-id"), help: "The credential ID, base64url; random 16 bytes by default.")
        var credentialID: String?

        @Option(name: .customLong("user-handle"), help: "The user handle, base64url (required for a discoverable one).")
        var userHandle: String?

        @Option(name: .customLong("user-name"), help: "The user's account name.")
        var userName = ""

        @Option(name: .customLong("sign-count"), help: "The signature counter to start from.")
        var signCount: UInt32 = 0

        @Option(help: "The profile the passkey behaves by (passkey profiles).")
        var profile: AuthenticatorProfile = .securityKey

        @Option(name: .customLong("rsa-algorithm"), help: "For an RSA key: -257 (RS256) or -37 (PS256).")
        var rsaAlgorithm: Int = COSEAlgorithm.rs256.rawValue

        @Flag(help: "A discoverable (resident) credential.")
        var resident = false

        func run() async throws {
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
            print("imported \(Base64URL.encode(imported.id)) for \(imported.rpID) (\(imported.algorithm))")
        }

        private func template() throws(WebAuthnClientError) -> CredentialTemplate {
            do {
                let handle = try userHandle.map { text throws(WebAuthnError) in try decodeOption("--user-handle", text)
                }
                guard !resident || handle != nil else {
                    throw WebAuthnClientError(.syntax, "a --resident passkey needs --user-handle")
                }
                return CredentialTemplate(
                    id: try credentialID.map { text throws(WebAuthnError) in try decodeOption("--credential-id", text) }
                        ?? SecureRandom.bytes(16),
                    rpID: rpID, userHandle: handle ?? [], userName: userName, userDisplayName: userName,
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
            try PrivateKeyFile.read(pkcs8, rsaAlgorithm: rsa())
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
