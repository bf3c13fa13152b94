import Foundation
import PasskeyAuthenticator

/// A file that holds a secret (a passphrase, a PIN) on its first line, so the secret is never a
/// command-line argument that `ps` would show.
enum SecretFile {
    /// The first line of `path`.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - what: how error messages name it (`--passphrase-file`, `PASSKEY_PKCS11_PIN_FILE`).
    /// - Throws: `NotAllowedError` when it cannot be read, `SyntaxError` when its first line is empty.
    static func firstLine(_ path: String, _ what: String) throws(WebAuthnClientError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WebAuthnClientError(.notAllowed, "\(what) \(path) cannot be read")
        }
        guard let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first,
            !line.isEmpty
        else {
            throw WebAuthnClientError(.syntax, "\(what) \(path): the first line is empty")
        }
        return String(line)
    }
}
