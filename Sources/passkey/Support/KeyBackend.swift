import ArgumentParser
import Foundation
import PasskeyAuthenticator
import PasskeyPKCS11
import WebAuthn

/// Where a store's credential keys live: sealed in the store, or in a PKCS#11 token.
enum KeyBackend: String, ExpressibleByArgument, CaseIterable {
    case software
    case pkcs11
}

/// Where a command's keys live: `--backend`, and the token of the pkcs11 backend.
struct KeyBackendOptions: ParsableArguments {
    @Option(
        help: "Where the keys live: software (sealed in the store) or pkcs11 (a token; default $PASSKEY_BACKEND).")
    var backend: KeyBackend?

    @Option(name: .customLong("module"), help: "With pkcs11: the PKCS#11 module (default $PASSKEY_PKCS11_MODULE).")
    var pkcs11Module: String?

    @Option(name: .customLong("token"), help: "With pkcs11: the token's label (default $PASSKEY_PKCS11_TOKEN).")
    var pkcs11Token: String?

    /// The token custody of `--backend pkcs11` (or `$PASSKEY_BACKEND`): the module and token from
    /// the options or `$PASSKEY_PKCS11_MODULE` and `$PASSKEY_PKCS11_TOKEN`, the PIN from
    /// `$PASSKEY_PKCS11_PIN` or the first line of `$PASSKEY_PKCS11_PIN_FILE`, never a flag; `nil`
    /// for the software backend.
    func tokenCustody(_ environment: [String: String]) async throws(WebAuthnClientError) -> PKCS11KeyCustody? {
        var chosen = backend
        if chosen == nil, let name = environment["PASSKEY_BACKEND"], !name.isEmpty {
            guard let named = KeyBackend(rawValue: name) else {
                throw WebAuthnClientError(.syntax, "PASSKEY_BACKEND is software or pkcs11, not \(name)")
            }
            chosen = named
        }
        guard chosen == .pkcs11 else {
            return nil
        }
        guard let module = pkcs11Module ?? environment["PASSKEY_PKCS11_MODULE"], !module.isEmpty else {
            throw WebAuthnClientError(.notAllowed, "the pkcs11 backend needs --module or PASSKEY_PKCS11_MODULE")
        }
        guard let label = pkcs11Token ?? environment["PASSKEY_PKCS11_TOKEN"], !label.isEmpty else {
            throw WebAuthnClientError(.notAllowed, "the pkcs11 backend needs --token or PASSKEY_PKCS11_TOKEN")
        }
        let pin = try Self.pin(environment)
        do {
            return PKCS11KeyCustody(
                token: try await PKCS11Token.open(module: PKCS11Module.load(module), label: label, pin: pin))
        } catch {
            throw WebAuthnClientError(.notAllowed, "PKCS#11 token \"\(label)\" in \(module): \(error)")
        }
    }

    private static func pin(_ environment: [String: String]) throws(WebAuthnClientError) -> PKCS11PIN {
        if let pin = environment["PASSKEY_PKCS11_PIN"], !pin.isEmpty {
            return PKCS11PIN(pin)
        }
        if let file = environment["PASSKEY_PKCS11_PIN_FILE"], !file.isEmpty {
            return PKCS11PIN(try SecretFile.firstLine(file, "PASSKEY_PKCS11_PIN_FILE"))
        }
        throw WebAuthnClientError(.notAllowed, "the pkcs11 backend needs PASSKEY_PKCS11_PIN or PASSKEY_PKCS11_PIN_FILE")
    }
}
