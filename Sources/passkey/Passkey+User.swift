import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyKit
import WebAuthn

extension Passkey {
    /// `passkey user metadata get|set`: the signed-in user's own `user_metadata`.
    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The signed-in user's own user (Auth0 Management API with a user's token).",
            subcommands: [Metadata.self])

        /// `passkey user metadata get|set`.
        struct Metadata: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Read or change the signed-in user's user_metadata.",
                discussion: """
                    The token is one for the Management API (https://DOMAIN/api/v2/) with the current-user scopes \
                    (read:current_user update:current_user_metadata update:current_user_identities), exchanged from \
                    the session's refresh token, and reaches the user's own ID only.
                    """,
                subcommands: [Get.self, Set.self], defaultSubcommand: Get.self)

            /// `passkey user metadata get`.
            struct Get: AsyncParsableCommand {
                static let configuration = CommandConfiguration(abstract: "Print the user's user_metadata.")

                @OptionGroup var auth0: Auth0Options

                func run() async throws {
                    try await runningFlow("user metadata", auth0) { user in
                        UserMetadataOutcome(metadata: try await user.userMetadata())
                    }
                }
            }

            /// `passkey user metadata set KEY=VALUE…`.
            struct Set: AsyncParsableCommand {
                static let configuration = CommandConfiguration(
                    abstract: "Merge KEY=VALUE pairs into the user's user_metadata; print it.",
                    discussion: """
                        A VALUE that is JSON (3, true, {"a":1}, "text") is set as that JSON, any other as a string; \
                        KEY=null removes KEY. Auth0 merges one level deep: an object given replaces the stored one.
                        """)

                @OptionGroup var auth0: Auth0Options

                @Argument(help: "KEY=VALUE pairs.")
                var pairs: [String]

                func validate() throws {
                    _ = try Self.members(pairs)
                }

                func run() async throws {
                    let members = try Self.members(pairs)
                    try await runningFlow("user metadata set", auth0) { user in
                        UserMetadataOutcome(metadata: try await user.updateUserMetadata(members))
                    }
                }

                /// The members `pairs` set: each value as JSON when it parses, else a string.
                static func members(_ pairs: [String]) throws(ValidationError) -> [String: JSONValue] {
                    var members: [String: JSONValue] = [:]
                    for pair in pairs {
                        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                            throw ValidationError("\(pair) is not KEY=VALUE")
                        }
                        let text = String(pair[pair.index(after: equals)...])
                        members[String(pair[..<equals])] =
                            (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .string(text)
                    }
                    return members
                }
            }
        }
    }

    /// `passkey link --with-sessions DIR`: links another session's user to the signed-in user.
    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Link another session's account to the signed-in user (Auth0 account linking).",
            discussion: """
                The other account is the user signed in under --with-sessions DIR (the same tenant and application, \
                another sessions directory, e.g. after `passkey login --sessions DIR`): its ID token is sent as \
                link_with. Afterwards, logging in with either account logs the signed-in user in. With --unlink \
                PROVIDER/ID, removes that identity instead, which becomes a user of its own again.
                """)

        @OptionGroup var auth0: Auth0Options

        @Option(name: .customLong("with-sessions"), help: "The other account's sessions directory.")
        var withSessions: String?

        @Option(help: "Unlink the identity PROVIDER/ID (e.g. auth0/65f0…) instead.")
        var unlink: String?

        func validate() throws {
            guard (withSessions == nil) != (unlink == nil) else {
                throw ValidationError("give either --with-sessions DIR or --unlink PROVIDER/ID")
            }
            if let unlink, unlink.split(separator: "/", maxSplits: 1).count != 2 {
                throw ValidationError("--unlink takes PROVIDER/ID")
            }
        }

        func run() async throws {
            try await runningFlow("link", auth0) { user in
                if let unlink {
                    let parts = unlink.split(separator: "/", maxSplits: 1).map(String.init)
                    return IdentitiesOutcome(try await user.unlink(identityId: parts[1], provider: parts[0]))
                }
                var other = auth0
                other.sessions = withSessions
                let otherUser = try other.settings().user(logger: auth0.logger)
                let idToken = try await otherUser.credentials().idToken
                guard !idToken.isEmpty else {
                    throw FlowFailure(
                        step: "link", code: "no_id_token", description: "the other session has no ID token",
                        hint: "log the other account in with the openid scope")
                }
                return IdentitiesOutcome(try await user.link(withOtherUserToken: idToken))
            }
        }
    }
}
