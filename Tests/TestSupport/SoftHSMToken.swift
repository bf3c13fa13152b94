import Foundation

/// A SoftHSM2 token for the tests of one process: a temporary token directory, its
/// `softhsm2.conf` in `SOFTHSM2_CONF`, and one token made with `softhsm2-util --init-token`, all
/// before the module is first loaded (a module reads its configuration once per process).
public enum SoftHSMToken {
    /// The token's label.
    public static let label = "softpasskey-test"
    /// The token's user PIN.
    public static let pin = "246810"
    /// The SoftHSM2 module: `$PASSKEY_PKCS11_MODULE`, else Debian's path.
    public static var module: String {
        ProcessInfo.processInfo.environment["PASSKEY_PKCS11_MODULE"] ?? "/usr/lib/softhsm/libsofthsm2.so"
    }

    /// Makes the token once; later calls return at once.
    ///
    /// - Returns: the environment a child process needs to use the token with `--backend pkcs11`.
    /// - Throws: when `softhsm2-util` is missing or fails.
    @discardableResult
    public static func prepare() async throws -> [String: String] {
        let configuration = try await made.value
        return [
            "SOFTHSM2_CONF": configuration, "PASSKEY_BACKEND": "pkcs11", "PASSKEY_PKCS11_MODULE": module,
            "PASSKEY_PKCS11_TOKEN": label, "PASSKEY_PKCS11_PIN": pin,
        ]
    }

    /// A token of its own for child processes only, in `directory`: for tests whose children may
    /// break it (SoftHSM2's file store rewrites `token.object` in place, so a SIGKILL at that
    /// instant loses the token), away from the token the rest of the process uses.
    ///
    /// - Returns: the environment a child process needs to use it with `--backend pkcs11`.
    public static func separate(in directory: TemporaryDirectory) async throws -> [String: String] {
        let configuration = try await initialize(in: directory)
        return [
            "SOFTHSM2_CONF": configuration, "PASSKEY_BACKEND": "pkcs11", "PASSKEY_PKCS11_MODULE": module,
            "PASSKEY_PKCS11_TOKEN": label, "PASSKEY_PKCS11_PIN": pin,
        ]
    }

    private static let made = Task<String, any Error> {
        let configuration = try await initialize(in: try TemporaryDirectory(prefix: "passkey-softhsm"))
        setenv("SOFTHSM2_CONF", configuration, 1)
        return configuration
    }

    /// Writes a `softhsm2.conf` whose tokens live in `directory`, and makes the token there.
    ///
    /// - Returns: the configuration file's path.
    private static func initialize(in directory: TemporaryDirectory) async throws -> String {
        try FileManager.default.createDirectory(atPath: directory.path + "/tokens", withIntermediateDirectories: true)
        let configuration = directory.write(
            "softhsm2.conf",
            "directories.tokendir = \(directory.path)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n")
        let result = try await ChildProcess.run(
            "/usr/bin/softhsm2-util",
            ["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "13579135"],
            environment: .inheriting(["SOFTHSM2_CONF": configuration]))
        guard result.status == 0 else {
            throw SoftHSMFailure(message: "softhsm2-util --init-token failed: \(result.stderr)")
        }
        return configuration
    }

    struct SoftHSMFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
