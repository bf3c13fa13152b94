import ArgumentParser
import Dispatch
import Foundation
import PasskeyAuthenticator
import PasskeyCTAP
import WebAuthn

extension Passkey {
    /// `passkey device`: the authenticator as a FIDO security key, CTAP 2.1 over CTAPHID, on a Unix
    /// socket for the FIDO clients that take a custom transport, or as a USB HID key through Linux
    /// `/dev/uhid` for every FIDO client (issue 29).
    struct Device: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Be a FIDO security key: CTAP 2.1 over CTAPHID on a Unix socket or as a Linux UHID device.",
            discussion: """
                With --socket, serves CTAPHID (CTAP 2.1 §11.2) on a Unix stream socket, each report exactly 64 \
                bytes each way with no framing, for FIDO clients that take a custom transport (python-fido2's \
                CtapHidConnection, libfido2's fido_dev_set_io_functions). Every connection talks to the same \
                device, on channels of its own. With --uhid, plugs in a USB HID security key through /dev/uhid \
                (the FIDO usage page's report descriptor), which browsers, libfido2, OpenSSH's -sk keys and \
                python-fido2 find as any key; /dev/uhid must be readable and writable by you (a udev rule and a \
                group: see the README, "As a FIDO device"). The passkeys are the store's, made with the \
                security-key profile; a client manages them (credential management) and sets a PIN (ClientPIN), \
                which the store keeps sealed with its retries, as a key keeps its own. User presence follows \
                --presence: auto (always present), deny (never), ask (a question on standard error for each \
                request, answered y on standard input within 30 s). With --uv, the key verifies users itself, \
                as a fingerprint reader or a phone does (CTAP 2.1 built-in user verification: getInfo's uv, \
                getPinUvAuthTokenUsingUvWithPermissions, the uv option of CTAP 2.0 clients): auto (always the \
                user), deny (never: each try spends one of 5 UV retries, kept in the store; with none left, only a \
                correct PIN or a reset unblocks it), ask (a question on standard error, answered y). Without --uv, \
                the PIN is the only user verification. The key speaks U2F (CTAP1) too, over CTAPHID_MSG, for \
                clients and sites that still use it; a credential registered through U2F also signs through CTAP2 \
                for the RP ID whose hash it was registered under. \
                authenticatorReset is refused unless --allow-reset, so no client can wipe the store by surprise. \
                Prints one line once it serves, then runs until SIGINT or SIGTERM, which remove the socket or \
                unplug the key.
                """)

        /// How the device learns that the user is present, or (`--uv`) verifies the user.
        enum Presence: String, ExpressibleByArgument, CaseIterable {
            case auto, deny, ask
        }

        @Option(help: "Listen on this Unix domain socket (the file must not exist).")
        var socket: String?

        @Flag(help: "Be a USB HID security key through /dev/uhid (Linux).")
        var uhid = false

        @Option(help: "User presence: auto (always), deny (never), ask (on the terminal).")
        var presence: Presence = .auto

        @Option(help: "Built-in user verification: auto (always), deny (never), ask (on the terminal); none if absent.")
        var uv: Presence?

        @Flag(
            help: ArgumentHelp(
                "Let a client's authenticatorReset (within 10 s of start, CTAP 2.1 §6.6) delete every passkey "
                    + "of the store."))
        var allowReset = false

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard (socket != nil) != uhid else {
                throw ValidationError("Give either --socket PATH or --uhid.")
            }
        }

        func run() async throws {
            let opened = try await reportingRefusals { () async throws(WebAuthnClientError) in try await store.open() }
            let (userPresence, userVerification) = policies()
            let commands = CTAPDevice(
                authenticator: SoftwareAuthenticator(
                    store: opened, profile: AuthenticatorProfile.securityKey.narrowed(for: opened)),
                state: opened, presence: userPresence, userVerification: userVerification,
                wipe: allowReset ? CTAPDevice.wiping(opened) : nil, credentials: opened)
            let device = CTAPHIDDevice(handler: commands)
            // Serving, and so the line that says so, waits until both signal sources are registered
            // (resume() only asks for that): a signal sent once the line is out is never lost to SIG_IGN.
            let (caught, catching) = AsyncStream.makeStream(of: Never.self)
            let registering = DispatchGroup()
            let serving: Task<Void, any Error>
            let line: String
            if let socket {
                line = "passkey device listening on unix:\(socket) (CTAPHID, 64-byte reports)\n"
                serving = Task {
                    for await _ in caught {}
                    try await CTAPHIDSocketServer(device: device, path: socket).run { say(line) }
                }
            } else {
                let key = CTAPHIDUHIDDevice(device: device)
                line = "passkey device plugged in through \(key.path) (USB HID, FIDO usage page)\n"
                serving = Task {
                    for await _ in caught {}
                    try await key.run { say(line) }
                }
            }
            let signals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { serving.cancel() }
                registering.enter()
                source.setRegistrationHandler { registering.leave() }
                source.resume()
                return source
            }
            registering.notify(queue: .global()) { catching.finish() }
            defer { signals.forEach { $0.cancel() } }
            do {
                try await serving.value
            } catch {
                printError("device: \(socket.map { "cannot listen on \($0)" } ?? "cannot be a UHID device"): \(error)")
                throw ExitCode(1)
            }
        }

        /// The presence and built-in user verification policies; when both ask, one reader of
        /// standard input serves both questions.
        private func policies() -> (presence: UserPresence, verification: UserVerification?) {
            var terminal: TerminalPresence?
            func asking() -> TerminalPresence {
                let asking = terminal ?? TerminalPresence()
                terminal = asking
                return asking
            }
            let userPresence: UserPresence =
                switch presence {
                case .auto: .automatic
                case .deny: .deny
                case .ask: asking().policy
                }
            let verification: UserVerification? =
                switch uv {
                case nil: nil
                case .auto: .automatic
                case .deny: .deny
                case .ask: asking().verification
                }
            return (userPresence, verification)
        }
    }
}

/// One line on standard output.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data(line.utf8))
}
