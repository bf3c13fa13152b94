/// A child process of `passkey-bench` (the peer's script, a fresh `passkey`) failed or printed no
/// figure: soft-webauthn missing (`make setup` installs it), or the command's own error.
struct BenchChildFailure: Error, CustomStringConvertible {
    let reason: String

    var description: String { "a measured process failed: \(reason)" }
}
