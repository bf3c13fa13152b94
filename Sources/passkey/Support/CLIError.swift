import ArgumentParser
import Foundation
import WebAuthn

/// A failure of the command line itself (as opposed to a WebAuthn check).
enum CLIError: Error, CustomStringConvertible {
    case unreadable(String)
    case unrecognized(String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .unrecognized(let why): why
        }
    }
}

/// Runs a command body so that every failure is one line on standard error and an exit status:
/// 1 for a check that failed, 2 for input that does not parse. Nothing reaches standard output.
func reportingFailures<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as WebAuthnError {
        printError(error.description)
        throw ExitCode(error.code.isMalformedInput ? 2 : 1)
    } catch let error as CLIError {
        printError("\(error.kind): \(error)")
        throw ExitCode(2)
    }
}

extension CLIError {
    /// The leading word of the error line.
    var kind: String {
        switch self {
        case .unreadable: "unreadable-input"
        case .unrecognized: "unrecognized-input"
        }
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
