import ArgumentParser
import Auth0Passkeys
import Foundation
import Logging

/// What every Auth0 command takes: the tenant (flags, else `AUTH0_*`, else the config file), the CA
/// bundle to trust (`--cacert`, else `CURL_CA_BUNDLE`, else `SSL_CERT_FILE`), the authenticator store
/// (as `create` / `get`), where sessions are kept, and the output form.
struct Auth0Options: ParsableArguments {
    @Option(help: "The tenant's domain (default: $AUTH0_DOMAIN, then the config file).")
    var domain: String?

    @Option(name: .customLong("client-id"), help: "The application's client ID ($AUTH0_CLIENT_ID).")
    var clientID: String?

    @Option(
        name: .customLong("base-url"),
        help: "Talk to this base URL instead of https://DOMAIN/, e.g. a local tenant's http://127.0.0.1:8080.")
    var baseURL: String?

    @OptionGroup var trust: CABundleOptions

    @Option(help: "The database connection ($AUTH0_CONNECTION).")
    var connection: String?

    @Option(help: "The API the access token is for ($AUTH0_AUDIENCE).")
    var audience: String?

    @Option(help: "The scopes to ask for ($AUTH0_SCOPE; default: \(Authentication.defaultScope)).")
    var scope: String?

    @Option(help: "The organization ID ($AUTH0_ORGANIZATION).")
    var organization: String?

    @Option(help: "Where sessions are kept (default: $PASSKEY_SESSIONS, then $XDG_DATA_HOME/auth0-passkeys).")
    var sessions: String?

    @OptionGroup var store: StoreOptions

    @OptionGroup var format: OutputOptions

    @Flag(name: .shortAndLong, help: "Show the HTTP exchanges on standard error, secrets redacted.")
    var verbose = false

    /// The flag's value for `setting`.
    func flag(_ setting: TenantSetting) -> String? {
        switch setting {
        case .domain: domain
        case .clientID: clientID
        case .baseURL: baseURL
        case .connection: connection
        case .audience: audience
        case .scope: scope
        case .organization: organization
        }
    }

    /// The settings from the flags, the environment and the config file, in that order.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(FlowFailure) -> TenantSettings
    {
        let file = try ConfigFile(path: ConfigFile.path(environment: environment))
        var values: [TenantSetting: String] = [:]
        for setting in TenantSetting.allCases {
            let candidates = [flag(setting), environment[setting.environmentVariable], file[setting]]
            values[setting] = candidates.lazy.compactMap { $0 }.first { !$0.isEmpty }
        }
        let sessionsDirectory =
            sessions ?? environment["PASSKEY_SESSIONS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileCredentialsStorage.defaultDirectory
        var settings = try TenantSettings(
            values, sessionsDirectory: sessionsDirectory, sealing: SessionPassphrase.sealing(environment: environment))
        settings.transport = trust.transport(environment: environment)
        return settings
    }

    /// A logger that writes the redacted HTTP trace to standard error with `-v`, else nothing.
    var logger: Logger? { Logger.httpTrace(verbose) }
}

extension Logger {
    /// With `verbose`, a logger that writes the Auth0 clients' trace (method, path, status,
    /// bodies with every secret redacted) to standard error; else none.
    static func httpTrace(_ verbose: Bool) -> Logger? {
        guard verbose else { return nil }
        var logger = Logger(label: "passkey", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .trace
        return logger
    }
}
