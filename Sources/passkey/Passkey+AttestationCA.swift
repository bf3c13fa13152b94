import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey attestation-ca`: the store's attestation root, for a relying party to trust, or a
    /// vendor's batch certificate and key to attest with instead.
    struct AttestationCA: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attestation-ca",
            abstract: "Print the store's attestation root CA in PEM (made on first use), or attest with a vendor's.",
            discussion: "Profiles that attest with a batch certificate (cdp) sign `packed` attestation whose x5c "
                + "chains to this root (WebAuthn L3 §8.2). Give --certificate and --key to use a chain and key of "
                + "your own for a profile's AAGUID instead; the key is sealed into the store.")

        @OptionGroup var store: StoreOptions

        @Option(help: "A PEM chain, leaf (the batch certificate) first, to attest with instead.")
        var certificate: String?

        @Option(help: "The leaf's PKCS#8 private key (DER or PEM), with --certificate.")
        var key: String?

        @Option(help: "The profile whose AAGUID the given chain is for (passkey profiles).")
        var profile: AuthenticatorProfile = .cdp

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard (certificate == nil) == (key == nil) else {
                throw ValidationError("give --certificate and --key together")
            }
        }

        func run() async throws {
            let output = try await reportingRefusals { () async throws(WebAuthnClientError) -> Output in
                let attestation = try given()
                let opened = try await store.open()
                do {
                    if let attestation {
                        try await opened.setBatchAttestation(attestation, aaguid: profile.aaguid)
                        return Output(
                            batch: Output.Batch(
                                profile: profile.name, aaguid: profile.aaguid.description,
                                certificates: attestation.certificates.count))
                    }
                    return Output(root: try await opened.attestationAuthority().pem)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            printOutput(output, json: format.json)
        }

        /// What `attestation-ca` prints: the root in PEM, or the profile that now attests with the
        /// given chain.
        struct Output: CommandOutput {
            /// A batch attestation set up: whose AAGUID, and how many certificates its chain has.
            struct Batch: Encodable {
                let profile: String
                let aaguid: String
                let certificates: Int
            }

            var root: String?
            var batch: Batch?

            var text: String {
                if let batch {
                    return
                        "attesting as \(batch.profile) (\(batch.aaguid)) with the given chain of \(batch.certificates)"
                }
                let pem = root ?? ""
                return pem.hasSuffix("\n") ? String(pem.dropLast()) : pem
            }
        }

        /// The chain and key given, checked against each other.
        private func given() throws(WebAuthnClientError) -> BatchAttestation? {
            guard let certificate, let key else {
                return nil
            }
            do {
                let pem = String(decoding: try Input.read(certificate), as: UTF8.self)
                let chain = try X509Certificate.certificates(pem: pem).map(\.derBytes)
                return try BatchAttestation(certificates: chain, key: PrivateKeyFile.read(key))
            } catch let error as WebAuthnClientError {
                throw error
            } catch let error as WebAuthnError {
                throw WebAuthnClientError(.syntax, "\(certificate): \(error.reason)")
            } catch {
                throw WebAuthnClientError(.syntax, "\(certificate): \(error)")
            }
        }
    }
}
