import Foundation
import TestSupport

/// The built `passkey` binary, run as a user would through `TestSupport`'s ``ChildProcess``.
enum CLIProcess {
    /// The built `passkey`, next to the test bundle.
    static var executable: String { ChildProcess.built("passkey") }
}

extension ProcessResult {
    /// The standard-error lines.
    var errorLines: [Substring] { stderr.split(separator: "\n") }

    /// Standard output decoded as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        return object
    }
}
