import ArgumentParser
import PasskeyAuthenticator
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

    /// The origin for a ceremony with `rpID`.
    func origin(rpID: String) throws(WebAuthnClientError) -> WebOrigin {
        let text = origin ?? "https://" + rpID
        do {
            return try WebOrigin(text)
        } catch {
            throw WebAuthnClientError(.security, "\(text) is not an origin: \(error.reason)")
        }
    }

    /// The software authenticator over `store`.
    func authenticator(store: any CredentialStore, accountChoice: AccountChoice = .mostRecent)
        throws(WebAuthnClientError) -> SoftwareAuthenticator
    {
        SoftwareAuthenticator(
            store: store, profile: profile, seed: try Seed(option: seed),
            simulation: simulate, accountChoice: accountChoice)
    }
}
