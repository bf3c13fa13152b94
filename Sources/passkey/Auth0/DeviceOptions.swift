import ArgumentParser
import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

/// What the commands that make or use a passkey take: the origin (a native app's
/// `https://<rpId>` by default, DESIGN.md "Native origin"), the profile, seeded mode and
/// failure injection, as `create` and `get` take them.
struct DeviceOptions: ParsableArguments {
    @Option(help: "The origin in the client data (default: https://<rpId>, a native app's).")
    var origin: String?

    @Option(help: "The authenticator profile.")
    var profile: AuthenticatorProfile = .platform

    @Option(help: "Derive credential IDs and keys from this hex seed (default: $PASSKEY_SEED).")
    var seed: String?

    @Option(help: "Act out a failure: \(Simulation.allCases.map(\.rawValue).joined(separator: ", ")).")
    var simulate: Simulation?

    /// The device these options describe, over `store`.
    func device(store: any CredentialStore) throws(WebAuthnClientError) -> VirtualDevice {
        let webOrigin: WebOrigin?
        do {
            webOrigin = try origin.map(WebOrigin.init)
        } catch {
            throw WebAuthnClientError(.security, "\(origin ?? "") is not an origin: \(error.reason)")
        }
        return VirtualDevice(
            store: store, profile: profile.narrowed(for: store), seed: try Seed(option: seed),
            simulation: simulate, origin: webOrigin)
    }
}
