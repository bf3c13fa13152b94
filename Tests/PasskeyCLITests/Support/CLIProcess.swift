import Foundation
import TestSupport
import WebAuthn

/// The built `passkey` binary, run as a user would through `TestSupport`'s ``ChildProcess``.
enum CLIProcess {
    /// The built `passkey`, next to the test bundle.
    static var executable: String { ChildProcess.built("passkey") }
}

extension ProcessResult {
    /// The standard-error lines.
    var errorLines: [Substring] { stderr.split(separator: "\n") }

    /// Standard output decoded as a JSON object.
    func json() throws -> JSONValue {
        let value = try JSONValue(json: Array(stdout.utf8))
        guard value.objectValue != nil else { throw CocoaError(.propertyListReadCorrupt) }
        return value
    }
}
