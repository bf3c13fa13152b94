import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey export`: the store's passkeys in the FIDO Credential Exchange Format, sealed under
    /// a passphrase.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export passkeys in the FIDO Credential Exchange Format (CXF 1.0), sealed under a passphrase.",
            discussion: "The CXF JSON is sealed with AES-256-GCM under a key scrypt derives from the passphrase "
                + "($PASSKEY_EXPORT_PASSPHRASE or --passphrase-file); `passkey import --cxf` opens it. Passkeys with "
                + "a counter above 0 are left out, as CXF 1.0 requires, and counted on stderr. With -o FILE and "
                + "--json, a summary of the export is printed.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var passphrase: ExportPassphraseOptions

        @Option(name: .customLong("rp-id"), help: "Export only this relying party's passkeys.")
        var rpID: String?

        @Option(name: .shortAndLong, help: "The file to write (0600), or - for standard output (the default).")
        var output = "-"

        @Flag(name: .customLong("insecure-plaintext"), help: "Write the CXF JSON unsealed, private keys in the clear.")
        var insecurePlaintext = false

        @OptionGroup var format: OutputOptions

        func validate() throws {
            guard !format.json || output != "-" else {
                throw ValidationError("--json summarizes an export written to a file: give -o FILE")
            }
        }

        func run() async throws {
            let (bytes, summary) = try await reportingRefusals {
                () async throws(WebAuthnClientError) -> ([UInt8], Summary) in
                let secret = try passphrase.passphrase()
                guard secret != nil || insecurePlaintext else {
                    throw WebAuthnClientError(
                        .notAllowed,
                        "an export holds private keys: give PASSKEY_EXPORT_PASSPHRASE or --passphrase-file "
                            + "(or --insecure-plaintext)")
                }
                let opened = try await store.open()
                do {
                    let (exchange, leftOut) = try await opened.exportCredentialExchange(rpID: rpID)
                    let bytes =
                        try secret.map { passphrase throws(StoreError) in
                            try SealedCredentialExchange.seal(exchange, passphrase: passphrase)
                        } ?? SealedCredentialExchange.encode(exchange)
                    let summary = Summary(
                        file: output, exported: exchange.accounts.map(\.items.count).reduce(0, +),
                        leftOut: leftOut.count, sealed: secret != nil)
                    return (bytes, summary)
                } catch {
                    throw WebAuthnClientError(.notAllowed, "\(error)")
                }
            }
            try await reportingRefusals { () async throws(WebAuthnClientError) in try write(bytes) }
            if summary.leftOut > 0 {
                FileHandle.standardError.write(
                    Data(
                        "left out \(summary.leftOut) passkeys with a counter or without a user handle (CXF 1.0)\n".utf8)
                )
            }
            if format.json {
                printJSON(summary)
            }
        }

        /// What `export -o FILE --json` prints.
        struct Summary: Encodable {
            let file: String
            /// The passkeys in the export.
            let exported: Int
            /// The passkeys left out: with a counter above 0 or without a user handle (CXF 1.0).
            let leftOut: Int
            /// Whether the export is sealed under the passphrase.
            let sealed: Bool
        }

        /// Writes the export to standard output, or to a new 0600 file.
        private func write(_ bytes: [UInt8]) throws(WebAuthnClientError) {
            guard output != "-" else {
                FileHandle.standardOutput.write(Data(bytes + [0x0A]))
                return
            }
            let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw WebAuthnClientError(.notAllowed, "\(output): \(String(cString: strerror(errno)))")
            }
            let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            do {
                guard fchmod(fd, 0o600) == 0 else {
                    throw WebAuthnClientError(.notAllowed, "\(output): \(String(cString: strerror(errno)))")
                }
                try handle.write(contentsOf: Data(bytes))
                try handle.synchronize()
            } catch {
                throw WebAuthnClientError(.notAllowed, "\(output): \(error)")
            }
        }
    }
}
