import ArgumentParser
import PasskeyKit

extension Passkey {
    /// `passkey enroll`: add a passkey to the signed-in user's account through My Account.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enroll another passkey for the signed-in user (Auth0 My Account).",
            discussion: """
                Exchanges the session's refresh token for a My Account token (audience https://DOMAIN/me/, scope \
                create:me:authentication_methods), asks for an enrollment challenge, creates the passkey and has \
                the tenant verify it. An authenticator keeps one passkey per account, so enroll into another \
                store (--store DIR), as a second device would; a store that holds one of the user's passkeys is refused.
                """)

        @OptionGroup var auth0: Auth0Options
        @OptionGroup var device: DeviceOptions

        func run() async throws {
            try await runningFlow("enroll", auth0) { user in
                let result = try await user.enroll(from: try await device.device(store: auth0.store.open()))
                return EnrollOutcome(result, user: try await user.storedUser())
            }
        }
    }
}
