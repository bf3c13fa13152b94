import Foundation
import TestSupport
import Testing

/// A user's terminal: a home directory of its own under the system's temporary directory, the
/// environment the CLI reads (`AUTH0_*`, `PASSKEY_STORE`, XDG directories), and the tenant it is
/// pointed at. Removed when released.
final class Terminal {
    let home: String
    var environment: [String: String]
    private let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "passkey-e2e")
        home = directory.path
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share",
            "PASSKEY_STORE": home + "/phone",
        ]
    }

    deinit { directory.remove() }

    /// Points the CLI at `tenant` through the environment, as a user's shell profile would.
    func use(_ tenant: CLITenant) {
        environment["AUTH0_BASE_URL"] = tenant.url
        environment["AUTH0_CLIENT_ID"] = tenant.clientID
    }

    /// Runs `passkey arguments…` with exactly this terminal's environment.
    @discardableResult
    func passkey(_ arguments: String...) async throws -> ProcessResult {
        try await passkey(arguments)
    }

    /// Runs `passkey arguments` with exactly this terminal's environment.
    @discardableResult
    func passkey(_ arguments: [String]) async throws -> ProcessResult {
        try await ChildProcess.run(CLIProcess.executable, arguments, environment: .exactly(environment))
    }

    /// Runs `passkey arguments…` with `input` on its standard input: a password for
    /// `--password-stdin`, which no argument may carry.
    @discardableResult
    func passkey(_ arguments: String..., input: String) async throws -> ProcessResult {
        try await ChildProcess.run(
            CLIProcess.executable, arguments, environment: .exactly(environment), input: Array(input.utf8))
    }

    /// Starts `passkey tenant serve` on this terminal's database and points the CLI at it.
    ///
    /// - Parameter arguments: more `tenant serve` options.
    /// - Returns: the running tenant.
    func startTenant(arguments: [String] = []) async throws -> CLITenant {
        let tenant = try await CLITenant(database: database, arguments: arguments)
        use(tenant)
        return tenant
    }

    /// Runs `passkey signup --email EMAIL more…` and expects it to succeed.
    ///
    /// - Returns: what it printed.
    @discardableResult
    func signUp(_ email: String, _ more: String..., sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> ProcessResult
    {
        let signup = try await ChildProcess.run(
            CLIProcess.executable, ["signup", "--email", email] + more, environment: .exactly(environment))
        #expect(signup.status == 0, "\(signup)", sourceLocation: sourceLocation)
        return signup
    }

    /// The tenant database's path for this terminal.
    var database: String { home + "/tenant.sqlite" }

    /// The files of the session directories (`$XDG_DATA_HOME/auth0-passkeys/<tenant>/…`), with
    /// their contents; not the empty `.lock` a renewal takes.
    func sessionFiles() -> [String: Data] {
        files(under: home + "/.local/share/auth0-passkeys").filter { !$0.key.hasSuffix("/.lock") }
    }

    /// The credential files of an authenticator store, with their contents.
    func storeFiles(_ store: String? = nil) -> [String: Data] {
        files(under: (store ?? home + "/phone") + "/credentials")
    }

    private func files(under directory: String) -> [String: Data] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [:] }
        var files: [String: Data] = [:]
        for case let path as String in enumerator {
            var isDirectory: ObjCBool = false
            let full = directory + "/" + path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
                let data = FileManager.default.contents(atPath: full)
            {
                files[path] = data
            }
        }
        return files
    }
}
