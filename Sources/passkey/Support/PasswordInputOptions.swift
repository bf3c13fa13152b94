import ArgumentParser
import Foundation

/// `--password-stdin`: a database connection's password, read from the first line of standard
/// input, as `docker login --password-stdin` reads one; never a flag's value, which `ps` and the
/// shell's history would keep. The password is sent to the tenant and never printed or logged
/// (the wire trace redacts it). `signup` and `login` share this one.
struct PasswordInputOptions: ParsableArguments {
    @Flag(
        name: .customLong("password-stdin"),
        help: "Use a password (database connection): read it from the first line of standard input.")
    var passwordStdin = false

    /// The password: the first line of standard input without its line ending.
    ///
    /// - Throws: `ValidationError` when standard input holds no password.
    func password() throws -> String {
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        let line = input.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        guard !password.isEmpty else {
            throw ValidationError("--password-stdin: the first line of standard input is empty")
        }
        return password
    }
}
