import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

/// The passphrase of an export file: `--passphrase-file F` (its first line), else
/// `$PASSKEY_EXPORT_PASSPHRASE`; never a flag's value, which `ps` would show. Apart from the
/// store's own `PASSKEY_PASSPHRASE`, since an export travels to another store.
struct ExportPassphraseOptions: ParsableArguments {
    @Option(
        name: .customLong("passphrase-file"),
        help: "A file whose first line is the export's passphrase (default: $PASSKEY_EXPORT_PASSPHRASE).")
    var passphraseFile: String?

    /// The passphrase, or `nil` when none is given.
    func passphrase() throws(WebAuthnClientError) -> Passphrase? {
        if let passphraseFile {
            return Passphrase(try SecretFile.firstLine(passphraseFile, "--passphrase-file"))
        }
        guard let text = ProcessInfo.processInfo.environment["PASSKEY_EXPORT_PASSPHRASE"], !text.isEmpty else {
            return nil
        }
        return Passphrase(text)
    }
}
