import ArgumentParser
import Foundation
import PasskeyPKCS11

/// Where the measured keys live, as `passkey`'s commands say it: `--backend` (or
/// `$PASSKEY_BACKEND`), and for a token `--module` and `--token` (or `$PASSKEY_PKCS11_MODULE` and
/// `$PASSKEY_PKCS11_TOKEN`) with the PIN from `$PASSKEY_PKCS11_PIN` or the first line of
/// `$PASSKEY_PKCS11_PIN_FILE`, never a flag.
struct BackendOptions: ParsableArguments {
    enum Backend: String, ExpressibleByArgument {
        case software
        case pkcs11
    }

    @Option(
        help: "Where the keys live: software (sealed in the store) or pkcs11 (a token; default $PASSKEY_BACKEND).")
    var backend: Backend?

    @Option(help: "With pkcs11: the PKCS#11 module (default $PASSKEY_PKCS11_MODULE).")
    var module: String?

    @Option(help: "With pkcs11: the token's label (default $PASSKEY_PKCS11_TOKEN).")
    var token: String?

    /// The token to measure, logged in; `nil` for the software backend.
    func custody(_ environment: [String: String]) async throws -> PKCS11KeyCustody? {
        let setting = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let name = backend?.rawValue ?? setting("PASSKEY_BACKEND") ?? Backend.software.rawValue
        switch Backend(rawValue: name) {
        case .software: return nil
        case .pkcs11: break
        case nil: throw BenchError("PASSKEY_BACKEND is software or pkcs11, not \(name)")
        }
        guard let module = module ?? setting("PASSKEY_PKCS11_MODULE"),
            let label = token ?? setting("PASSKEY_PKCS11_TOKEN")
        else {
            throw BenchError("the pkcs11 backend needs --module and --token (or their PASSKEY_PKCS11_ variables)")
        }
        let pin: String
        if let given = setting("PASSKEY_PKCS11_PIN") {
            pin = given
        } else if let file = setting("PASSKEY_PKCS11_PIN_FILE"),
            let line = try String(contentsOfFile: file, encoding: .utf8).split(whereSeparator: \.isNewline).first
        {
            pin = String(line)
        } else {
            throw BenchError("the pkcs11 backend needs PASSKEY_PKCS11_PIN or PASSKEY_PKCS11_PIN_FILE")
        }
        return PKCS11KeyCustody(
            token: try await PKCS11Token.open(module: PKCS11Module.load(module), label: label, pin: PKCS11PIN(pin)))
    }
}
