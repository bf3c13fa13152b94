import ArgumentParser
import Auth0Passkeys
import Foundation
import Glibc
import PasskeyKit
import WebAuthn

/// How the CLI keeps sessions safe (issue 17): what their files are sealed under, and where a
/// passphrase the session requires comes from.
enum SessionPassphrase {
    /// The sealing of session files: under `$PASSKEY_PASSPHRASE` when set (as the credential
    /// store is), else under the key file `$PASSKEY_SESSION_KEY_FILE`, else
    /// ``CredentialsSealing/defaultKeyFile``.
    static func sealing(environment: [String: String]) -> CredentialsSealing {
        if let passphrase = StoreOptions.passphrase(environment: environment) {
            return .passphrase(passphrase)
        }
        let keyFile = environment["PASSKEY_SESSION_KEY_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        return .keyFile(keyFile ?? CredentialsSealing.defaultKeyFile)
    }

    /// The passphrase a session requires (`--require-passphrase`): `$PASSKEY_PASSPHRASE` when set,
    /// else asked on the terminal, without echo, when standard input is one.
    static func prompt(environment: [String: String]) -> @Sendable () async throws -> Passphrase {
        let fromEnvironment = StoreOptions.passphrase(environment: environment)
        return {
            if let fromEnvironment { return fromEnvironment }
            guard isatty(STDIN_FILENO) == 1 else { throw NotInteractive() }
            return try await Self.askOnTerminal("Session passphrase: ")
        }
    }

    /// Why no passphrase could be had.
    struct NotInteractive: Error, CustomStringConvertible {
        var description: String { "no terminal to ask on: set PASSKEY_PASSPHRASE" }
    }

    /// Reads one line from `/dev/tty` with echo off, on a thread of its own (the read blocks).
    static func askOnTerminal(_ prompt: String) async throws -> Passphrase {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try readWithoutEcho(prompt) })
            }.start()
        }
    }

    private static func readWithoutEcho(_ prompt: String) throws -> Passphrase {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else { throw NotInteractive() }
        defer { close(terminal) }
        var saved = termios()
        tcgetattr(terminal, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(terminal, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(terminal, TCSAFLUSH, &saved)
            _ = write(terminal, "\n", 1)
        }
        _ = prompt.withCString { write(terminal, $0, strlen($0)) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(terminal, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        defer { secureZero(&line) }
        return Passphrase(String(decoding: line, as: UTF8.self))
    }
}

/// `--require-passphrase` of `signup` and `login`: the session asks for a passphrase before its
/// tokens are used (`CredentialsManager.requirePassphrase`), until logout.
struct SessionProtectionOptions: ParsableArguments {
    @Flag(
        name: .customLong("require-passphrase"),
        help:
            "Ask for a passphrase ($PASSKEY_PASSPHRASE, else on the terminal) each time the session's tokens are used.")
    var requirePassphrase = false

    /// Makes `user`'s session require the passphrase, when asked to.
    func apply(to user: VirtualUser) async throws {
        guard requirePassphrase else { return }
        let passphrase = try await SessionPassphrase.prompt(environment: ProcessInfo.processInfo.environment)()
        try await user.credentialsManager.requirePassphrase(passphrase)
    }
}
