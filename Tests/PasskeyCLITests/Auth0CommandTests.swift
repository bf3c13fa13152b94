import ArgumentParser
import Auth0Passkeys
import Foundation
import PasskeyAuthenticator
import Testing
import WebAuthn

@testable import passkey

/// The parts of the Auth0 commands that need no tenant: where settings come from, where the
/// session goes, and how each failure reads.
@Suite struct Auth0CommandTests {
    /// A config file with `values`, and the environment that points at it.
    static func configured(_ values: [String: String]) throws -> [String: String] {
        let path = NSTemporaryDirectory() + "/passkey-config-\(UUID().uuidString).json"
        try JSONEncoder().encode(values).write(to: URL(fileURLWithPath: path))
        return ["PASSKEY_CONFIG": path, "HOME": "/nonexistent"]
    }

    @Test func flagsWinOverTheEnvironmentWhichWinsOverTheFile() throws {
        var environment = try Self.configured([
            "domain": "file.example.com", "client-id": "from-file", "scope": "openid", "organization": "org_file",
        ])
        environment["AUTH0_CLIENT_ID"] = "from-environment"
        environment["AUTH0_DOMAIN"] = "environment.example.com"
        let fromEnvironment = try Auth0Options.parse([]).settings(environment: environment)
        #expect(fromEnvironment.clientID == "from-environment")
        #expect(fromEnvironment.domain == "environment.example.com")
        #expect(fromEnvironment.baseURL == "https://environment.example.com")
        #expect(fromEnvironment.scope == "openid" && fromEnvironment.organization == "org_file")

        let fromFlags = try Auth0Options.parse(["--client-id", "from-flag", "--base-url", "http://127.0.0.1:9"])
            .settings(environment: environment)
        #expect(fromFlags.clientID == "from-flag" && fromFlags.baseURL == "http://127.0.0.1:9")
        #expect(fromFlags.domain == "environment.example.com")
    }

    @Test func missingSettingsSayWhatToDo() throws {
        let none = try Self.configured([:])
        let noClient = #expect(throws: FlowFailure.self) { try Auth0Options.parse([]).settings(environment: none) }
        #expect(noClient?.code == "no_client_id" && noClient?.hint.contains("passkey config set client-id") == true)
        let noTenant = #expect(throws: FlowFailure.self) {
            try Auth0Options.parse(["--client-id", "x"]).settings(environment: none)
        }
        #expect(noTenant?.code == "no_tenant")
        let http = #expect(throws: FlowFailure.self) {
            try Auth0Options.parse(["--client-id", "x", "--base-url", "http://example.com"])
                .settings(environment: none).user(logger: nil)
        }
        #expect(http?.code == "a0.sdk.internal_error.invalid_configuration")
    }

    @Test func aCorruptConfigFileIsNamed() throws {
        let path = NSTemporaryDirectory() + "/passkey-config-\(UUID().uuidString).json"
        try Data("[1, 2".utf8).write(to: URL(fileURLWithPath: path))
        let failure = #expect(throws: FlowFailure.self) { try ConfigFile(path: path) }
        #expect(failure?.code == "bad-config-file" && failure?.description.contains(path) == true)
    }

    @Test func eachTenantAndApplicationHasItsOwnSessionDirectory() {
        #expect(
            TenantSettings.directoryName(clientID: "abc", baseURL: "http://127.0.0.1:8080/")
                == "abc@127.0.0.1_8080")
        #expect(
            TenantSettings.directoryName(clientID: "a/b", baseURL: "https://login.example.com")
                == "a_b@login.example.com")
        #expect(TenantSettings.directoryName(clientID: "x", baseURL: "https://t.example/../..") == "x@t.example_.._..")
    }

    @Test func failuresReadAsOneLineWithAHint() {
        let client = FlowFailure(
            step: "login",
            AuthenticationError(
                info: ["error": .string("invalid_client"), "error_description": .string("Unknown client.")],
                statusCode: 401))
        #expect(
            client.line == "login failed: invalid_client (HTTP 401): Unknown client. — "
                + "check --client-id (AUTH0_CLIENT_ID): the tenant does not know this application")

        let down = FlowFailure(
            step: "signup",
            AuthenticationError(
                info: [:], statusCode: 0, cause: TransportError(.cannotConnect, "Couldn't connect to server")))
        #expect(down.code == "cannot-connect" && down.status == nil && down.hint.contains("is the tenant running"))

        let revoked = FlowFailure(
            step: "token",
            CredentialsManagerError(
                .renewFailed, "The credentials could not be renewed.",
                cause: AuthenticationError(
                    info: [
                        "error": .string("invalid_grant"),
                        "error_description": .string("Unknown or invalid refresh token."),
                    ], statusCode: 403)))
        #expect(revoked.line.hasPrefix("token failed: invalid_grant (HTTP 403): Unknown or invalid refresh token."))
        #expect(revoked.hint.contains("passkey login"))

        let notLoggedIn = FlowFailure(step: "whoami", CredentialsManagerError(.noCredentials, "none"))
        #expect(notLoggedIn.code == "not_logged_in")

        let cancelled = FlowFailure(step: "login", WebAuthnClientError(.notAllowed, "the user cancelled"))
        #expect(cancelled.line.hasPrefix("login failed: NotAllowedError: the user cancelled — "))

        let corrupt = FlowFailure(
            step: "login",
            WebAuthnClientError(
                AuthenticatorError(
                    .other, "the credential store failed",
                    cause: StoreError(.corrupt, "not a credential file", file: "/s/credentials/x.json"))))
        #expect(corrupt.code == "store-corrupt" && corrupt.description.contains("/s/credentials/x.json"))
        #expect(!corrupt.line.contains("\n"))
    }

    @Test func theEnvironmentGivesTheStoreDirectoryAndPassphrase() {
        #expect(StoreOptions.passphrase(environment: [:]) == nil)
        #expect(StoreOptions.passphrase(environment: ["PASSKEY_PASSPHRASE": ""]) == nil)
        #expect(StoreOptions.passphrase(environment: ["PASSKEY_PASSPHRASE": "x"]) != nil)
        let home = ["HOME": "/home/a"]
        #expect(StoreOptions.defaultDirectory(environment: home) == "/home/a/.local/share/passkey")
        #expect(
            StoreOptions.defaultDirectory(environment: home.merging(["XDG_DATA_HOME": "/d"]) { $1 }) == "/d/passkey")
        #expect(
            StoreOptions.defaultDirectory(environment: ["PASSKEY_STORE": "/s", "XDG_DATA_HOME": "/d", "HOME": "/h"])
                == "/s")
        #expect(StoreOptions.defaultDirectory(environment: [:]) == nil)
    }

    @Test func theBearerChallengeNamesTheError() {
        let parsed = APIOutcome.bearerError(
            #"Bearer realm="api", error="insufficient_scope", error_description="read:events is required""#)
        #expect(parsed?.code == "insufficient_scope" && parsed?.description == "read:events is required")
        #expect(APIOutcome.bearerError(#"Bearer realm="api""#) == nil)
    }
}
