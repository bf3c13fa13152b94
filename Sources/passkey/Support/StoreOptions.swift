public import ArgumentParser
import Foundation
public import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

/// Where the credential store is: `--store DIR`, else `$PASSKEY_STORE`, else
/// `$XDG_DATA_HOME/passkey`, else `~/.local/share/passkey` (DESIGN.md); sealed under
/// `$PASSKEY_PASSPHRASE` when set, else under the store's key file.
struct StoreOptions: ParsableArguments {
    @Option(help: "The credential store directory (default: $PASSKEY_STORE, then $XDG_DATA_HOME/passkey).")
    var store: String?

    @OptionGroup var keys: KeyBackendOptions

    /// The store's directory.
    func directory() throws(WebAuthnClientError) -> String {
        guard let directory = store ?? Self.defaultDirectory(environment: ProcessInfo.processInfo.environment) else {
            throw WebAuthnClientError(.notAllowed, "no credential store: pass --store DIR or set PASSKEY_STORE")
        }
        return directory
    }

    /// Opens the store; with the pkcs11 backend, its records keep keys in the token.
    ///
    /// - Parameter watchingChanges: whether the store watches `credentials/` with inotify, so a
    ///   credential read again is served from memory. A one-ceremony process (`passkey get`,
    ///   `create`) reads each credential once and passes `false`: adding the watch makes the
    ///   kernel walk every cached entry of the directory (`fsnotify_set_children_dentry_flags`),
    ///   some 70 ms of a new process's first `get` in a store of 10^6 credentials (issue 46).
    func open(watchingChanges: Bool = true) async throws(WebAuthnClientError) -> FileCredentialStore {
        let directory = try directory()
        let environment = ProcessInfo.processInfo.environment
        let custody = try await keys.tokenCustody(environment)
        do {
            return try await FileCredentialStore(
                directory: directory, passphrase: Self.passphrase(environment: environment), custody: custody,
                watchingChanges: watchingChanges)
        } catch {
            throw WebAuthnClientError(.notAllowed, "the credential store \(directory) cannot be opened: \(error)")
        }
    }
}

extension StoreOptions {
    /// The default store directory: `$PASSKEY_STORE`, else `$XDG_DATA_HOME/passkey`, else
    /// `$HOME/.local/share/passkey` (DESIGN.md: Generic WebAuthn in and out).
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: the directory, or `nil` when none of the variables is set.
    static func defaultDirectory(environment: [String: String]) -> String? {
        if let store = environment["PASSKEY_STORE"], !store.isEmpty {
            return store
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return data + "/passkey"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return home + "/.local/share/passkey"
        }
        return nil
    }

    /// The store passphrase, from `PASSKEY_PASSPHRASE` when set and not empty; `nil` for a
    /// key-file store.
    ///
    /// - Parameter environment: the process environment.
    static func passphrase(environment: [String: String]) -> Passphrase? {
        guard let text = environment["PASSKEY_PASSPHRASE"], !text.isEmpty else {
            return nil
        }
        return Passphrase(text)
    }
}

/// What both ceremonies take: the store, the origin, seeded mode and failure injection.
struct AuthenticatorOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions

    @Option(help: "The caller's origin, e.g. https://example.com (http only on localhost or loopback).")
    var origin: String

    @Option(name: .customLong("top-origin"), help: "The top-level origin, for a call from a cross-origin iframe.")
    var topOrigin: String?

    @Option(help: "The options JSON file, or - for standard input (the default).")
    var options: String = "-"

    @Option(help: "Derive credential IDs and keys from this hex seed (default: $PASSKEY_SEED), for reproducible runs.")
    var seed: String?

    @Option(help: "Act out a failure: \(Simulation.allCases.map(\.rawValue).joined(separator: ", ")).")
    var simulate: Simulation?

    @OptionGroup var relatedOrigins: RelatedOriginsOptions

    @OptionGroup var trust: CABundleOptions

    /// The caller's origin and, for a cross-origin call, the top origin.
    func origins() throws(WebAuthnClientError) -> (WebOrigin, WebOrigin?) {
        func parse(_ text: String, _ option: String) throws(WebAuthnClientError) -> WebOrigin {
            do {
                return try WebOrigin(text)
            } catch {
                throw WebAuthnClientError(.security, "\(option): \(error.reason)")
            }
        }
        return (
            try parse(origin, "--origin"),
            try topOrigin.map { (text) throws(WebAuthnClientError) in
                try parse(text, "--top-origin")
            }
        )
    }

    /// Reads and decodes the options JSON.
    func decodeOptions<Options: Decodable>(_ type: Options.Type) throws(WebAuthnClientError) -> Options {
        let bytes: [UInt8]
        do {
            bytes = try Input.read(options)
        } catch {
            throw WebAuthnClientError(.syntax, "cannot read the options from \(options)")
        }
        do {
            return try WebAuthnJSON.decode(type, from: bytes)
        } catch {
            throw WebAuthnClientError(.syntax, "the options are not valid JSON: \(error.reason)")
        }
    }

    /// The software authenticator over the store, for one ceremony (the store opened without a
    /// watch), with this run's seed and simulation.
    func authenticator(profile: AuthenticatorProfile, accountChoice: AccountChoice = .mostRecent)
        async throws(WebAuthnClientError) -> SoftwareAuthenticator
    {
        let opened = try await store.open(watchingChanges: false)
        return SoftwareAuthenticator(
            store: opened, profile: profile.narrowed(for: opened), seed: try Seed(option: seed),
            simulation: simulate, accountChoice: accountChoice)
    }
}

extension AuthenticatorOptions {
    /// The WebAuthn client over `authenticator`, fetching related origins with libcurl (trusting
    /// `--cacert`) when `--related-origins` is given.
    func client(_ authenticator: any Authenticator) -> WebAuthnClient {
        WebAuthnClient(authenticator: authenticator, relatedOrigins: relatedOrigins.fetcher(trust))
    }
}

extension Seed {
    /// The seed of `--seed HEX`, else of `$PASSKEY_SEED`, else none.
    init?(option hex: String?) throws(WebAuthnClientError) {
        guard let hex = hex ?? ProcessInfo.processInfo.environment["PASSKEY_SEED"].flatMap({ $0.isEmpty ? nil : $0 })
        else { return nil }
        do {
            try self.init(hex: hex)
        } catch {
            throw WebAuthnClientError(.syntax, "--seed / PASSKEY_SEED: \(error.reason)")
        }
    }
}

extension Simulation: ExpressibleByArgument {}

/// Runs a ceremony command: a refusal prints one line starting with the WebAuthn error name
/// and exits 1 (2 for malformed input), with nothing on standard output (DESIGN.md).
func reportingRefusals<T>(_ body: () async throws(WebAuthnClientError) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        printError(error.description)
        throw ExitCode(error.name == .syntax ? 2 : 1)
    }
}

/// Writes a WebAuthn JSON value to standard output, compact, on one line.
func printWebAuthnJSON(_ value: some Encodable) {
    FileHandle.standardOutput.write(Data(WebAuthnJSON.encode(value) + [UInt8(ascii: "\n")]))
}
