import ArgumentParser
import Foundation
import PasskeyAuthenticator
import WebAuthn

extension Passkey {
    /// `passkey list`: the store's passkeys, newest first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the passkeys in the store, newest first.",
            discussion: "A credential file that cannot be read is reported on standard error by name; the "
                + "others are listed.")

        @OptionGroup var store: StoreOptions

        @Option(help: "Only this relying party's passkeys.")
        var rp: String?

        @OptionGroup var format: OutputOptions

        func run() async throws {
            let listing = try await reportingRefusals { () async throws(WebAuthnClientError) in
                let opened = try await store.open()
                do {
                    if let rp {
                        return try await opened.credentials(rpID: rp)
                    }
                    return try await opened.all()
                } catch {
                    throw WebAuthnClientError(.notAllowed, "the credential store cannot be read: \(error)")
                }
            }
            for problem in listing.problems {
                printError("warning: \(problem)")
            }
            if format.json {
                printJSON(ListedPasskeys(listing))
            } else {
                for credential in listing.credentials {
                    print(ListedPasskey(credential).line)
                }
            }
        }
    }
}

/// The `--json` form of a listing.
struct ListedPasskeys: Encodable {
    let credentials: [ListedPasskey]
    let problems: [String]

    init(_ listing: StoreListing) {
        credentials = listing.credentials.map(ListedPasskey.init)
        problems = listing.problems.map(\.description)
    }
}

/// One passkey as `list` shows it: never its sealed key.
struct ListedPasskey: Encodable {
    let id: String
    let rpId: String
    let userName: String
    let userDisplayName: String
    let userHandle: String
    let algorithm: String
    let profile: String
    let signCount: UInt32
    let discoverable: Bool
    let backupEligible: Bool
    let backupState: Bool
    let createdAt: String

    init(_ credential: StoredCredential) {
        id = Base64URL.encode(credential.id)
        rpId = credential.rpID
        userName = credential.userName
        userDisplayName = credential.userDisplayName
        userHandle = Base64URL.encode(credential.userHandle)
        algorithm = credential.algorithm.description
        profile = credential.profile
        signCount = credential.signCount
        discoverable = credential.discoverable
        backupEligible = credential.backupEligible
        backupState = credential.backupState
        createdAt = credential.createdAt.formatted(.iso8601)
    }

    /// One line of the text listing.
    var line: String {
        [id, rpId, userName, algorithm, profile, "signCount=\(signCount)", createdAt].joined(separator: "  ")
    }
}
