import ArgumentParser

extension Passkey {
    /// `passkey enroll`: add a passkey to the signed-in user's account through My Account.
    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enroll another passkey for the signed-in user (Auth0 My Account).",
            discussion: """
                Exchanges the session's refresh token for a My Account token (audience https://DOMAIN/me/, scope \
                create:me:authentication_methods), asks for an enrollment challenge, creates the passkey and has \
                the tenant verify it. The tenant excludes the user's passkeys, so enroll into another store \
                (--store DIR), as a second device would.
                """)

        @OptionGroup var auth0: Auth0Options
        @OptionGroup var device: DeviceOptions

        func run() async throws {
            try await runningFlow("enroll", auth0) { flows in
                try await flows.enroll(device: device, store: try await auth0.store.open())
            }
        }
    }
}
