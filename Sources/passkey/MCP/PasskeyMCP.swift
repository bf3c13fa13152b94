import Auth0Passkeys
import Foundation
import MCP
import PasskeyAuthenticator
import PasskeyControl
import WebAuthn

/// What `passkey mcp` serves: the control service's tools (``ControlMCPServer``) on one
/// authenticator over the store, plus the CLI's own `inspect` and `verify_*` tools, which answer
/// as `passkey inspect --json` and `passkey verify` print.
enum PasskeyMCP {
    /// The tools over `store`, whose new passkeys are of `profile` and whose keys `custody` keeps
    /// when given, whose virtual users reach their tenants through `transport` (`--cacert`), and
    /// whose ceremonies fetch related origins with `relatedOrigins` (`--related-origins`); the
    /// store's passphrase is `$PASSKEY_PASSPHRASE`, as for every command.
    static func start(
        store: String, profile: String, custody: (any CredentialKeyCustody)? = nil,
        transport: any HTTPTransport = CurlTransport(configuration: ControlService.transportConfiguration),
        relatedOrigins: RelatedOriginsFetcher? = nil
    ) async throws -> ControlMCPServer {
        let service = ControlService(
            passphrase: StoreOptions.passphrase(environment: ProcessInfo.processInfo.environment), custody: custody,
            transport: transport, relatedOrigins: relatedOrigins)
        let configuration = try VirtualAuthenticatorConfiguration(parameters: [
            "softpasskey:profile": .string(profile), "softpasskey:store": .string(store),
        ])
        return try await ControlMCPServer.start(service: service, authenticator: configuration, additionalTools: tools)
    }

    /// The CLI's tools.
    static let tools: [ControlMCPTool] = [
        ControlMCPTool(
            "inspect", "Decode a WebAuthn response, attestation object, authenticator data or client data.",
            [
                "input": ControlMCPTool.string(
                    "RegistrationResponseJSON / AuthenticationResponseJSON text, or base64url / hex bytes.")
            ], required: ["input"], readOnly: true
        ) { arguments in
            Array(try InspectedInput(Array(try arguments.required("input").utf8)).report().json.utf8)
        },
        ControlMCPTool(
            "verify_registration", "Verify a RegistrationResponseJSON as a relying party would (WebAuthn L3 §7.1).",
            [
                "response": ControlMCPTool.object("The RegistrationResponseJSON."),
                "challenge": ControlMCPTool.string("The challenge, base64url."),
                "origin": ControlMCPTool.string("The expected origin."), "rpId": ControlMCPTool.string("The RP ID."),
                "requireUserVerification": ControlMCPTool.boolean("Require the UV flag."),
            ], required: ["response", "challenge", "origin", "rpId"], readOnly: true
        ) { arguments in
            let response = try arguments.decode(RegistrationResponseJSON.self, "response")
            let verified = try arguments.relyingParty().verifyRegistration(
                response, challenge: try arguments.bytes("challenge"))
            return WebAuthnJSON.encode(Passkey.Verify.Registration.Output(verified))
        },
        ControlMCPTool(
            "verify_authentication",
            "Verify an AuthenticationResponseJSON against a stored public key as a relying party would (WebAuthn L3 §7.2).",
            [
                "response": ControlMCPTool.object("The AuthenticationResponseJSON."),
                "challenge": ControlMCPTool.string("The challenge, base64url."),
                "origin": ControlMCPTool.string("The expected origin."), "rpId": ControlMCPTool.string("The RP ID."),
                "publicKey": ControlMCPTool.string(
                    "The credential's COSE_Key, base64url (verify_registration's publicKey)."),
                "signCount": ControlMCPTool.integer("The stored signature counter."),
                "userHandle": ControlMCPTool.string("The owner's user handle, base64url, for a discoverable login."),
                "requireUserVerification": ControlMCPTool.boolean("Require the UV flag."),
            ], required: ["response", "challenge", "origin", "rpId", "publicKey"], readOnly: true
        ) { arguments in
            let response = try arguments.decode(AuthenticationResponseJSON.self, "response")
            let record = CredentialRecord(
                id: response.rawId.bytes, publicKey: try arguments.bytes("publicKey"),
                signCount: UInt32(exactly: arguments.number("signCount") ?? 0) ?? 0,
                userHandle: arguments.string("userHandle") == nil ? nil : try arguments.bytes("userHandle"))
            let verified = try arguments.relyingParty().verifyAuthentication(
                response, challenge: try arguments.bytes("challenge"), credential: record,
                userIdentified: record.userHandle == nil ? .beforeCeremony : .byResponse)
            return WebAuthnJSON.encode(Passkey.Verify.Authentication.Output(verified))
        },
    ]
}
