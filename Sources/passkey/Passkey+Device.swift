import ArgumentParser
import Dispatch
import Foundation
import PasskeyAuthenticator
import PasskeyCTAP
import WebAuthn

extension Passkey {
    /// `passkey device`: the authenticator as a FIDO security key, CTAP 2.1 over CTAPHID, for the
    /// FIDO clients that take a custom transport (issue 29).
    struct Device: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Be a FIDO security key: CTAP 2.1 over CTAPHID on a Unix socket.",
            discussion: """
                Serves CTAPHID (CTAP 2.1 §11.2) on a Unix stream socket, each report exactly 64 bytes each way \
                with no framing, for FIDO clients that take a custom transport (python-fido2's CtapHidConnection, \
                libfido2's fido_dev_set_io_functions). Every connection talks to the same device, on channels of \
                its own. The passkeys are the store's, made with the security-key profile; user presence is \
                automatic; authenticatorReset is refused unless --allow-reset, so no client can wipe the store by \
                surprise. Prints one line once it listens, then runs until SIGINT or SIGTERM, which remove the \
                socket.
                """)

        @Option(help: "Listen on this Unix domain socket (the file must not exist).")
        var socket: String

        @Flag(
            help: ArgumentHelp(
                "Let a client's authenticatorReset (within 10 s of start, CTAP 2.1 §6.6) delete every passkey "
                    + "of the store."))
        var allowReset = false

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let opened = try await reportingRefusals { () async throws(WebAuthnClientError) in try await store.open() }
            let commands = CTAPDevice(
                authenticator: SoftwareAuthenticator(
                    store: opened, profile: AuthenticatorProfile.securityKey.narrowed(for: opened)),
                state: opened as? any CTAPStateStore,
                wipe: allowReset ? CTAPDevice.wiping(opened) : nil, credentials: opened)
            let server = CTAPHIDSocketServer(device: CTAPHIDDevice(handler: commands), path: socket)
            let line = "passkey device listening on unix:\(socket) (CTAPHID, 64-byte reports)\n"
            let serving = Task {
                try await server.run { FileHandle.standardOutput.write(Data(line.utf8)) }
            }
            let signals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { serving.cancel() }
                source.resume()
                return source
            }
            defer { signals.forEach { $0.cancel() } }
            do {
                try await serving.value
            } catch {
                printError("device: cannot listen on \(socket): \(error)")
                throw ExitCode(1)
            }
        }
    }
}
