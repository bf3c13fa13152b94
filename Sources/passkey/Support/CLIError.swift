import ArgumentParser
import Foundation
import PasskeyAuthenticator
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

/// Runs `body`, turning what it throws into a `.syntax` `WebAuthnClientError` whose message
/// starts with `subject` (the file or option at fault), when given; a `WebAuthnClientError` passes
/// through as it is.
func asSyntaxError<T>(_ subject: String? = nil, _ body: () throws -> T) throws(WebAuthnClientError) -> T {
    let prefix = subject.map { "\($0): " } ?? ""
    do {
        return try body()
    } catch let error as WebAuthnClientError {
        throw error
    } catch let error as WebAuthnError {
        throw WebAuthnClientError(.syntax, prefix + error.reason)
    } catch {
        throw WebAuthnClientError(.syntax, prefix + "\(error)")
    }
}

/// Writes one line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
