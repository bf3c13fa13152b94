import MCP

extension ControlMCPServer {
    /// The service's tools, each with a JSON Schema of its arguments.
    static let serviceTools: [Tool] = [
        tool(
            "create",
            "Create a passkey (navigator.credentials.create) from PublicKeyCredentialCreationOptionsJSON; "
                + "answers RegistrationResponseJSON. Refusals: NotAllowedError, InvalidStateError, SecurityError, "
                + "NotSupportedError, SyntaxError.",
            ["origin": string("The caller's origin, https://…"), "options": object("The creation options (L3 JSON).")],
            required: ["origin", "options"]),
        tool(
            "get",
            "Sign in with a passkey (navigator.credentials.get) for PublicKeyCredentialRequestOptionsJSON; "
                + "answers AuthenticationResponseJSON.",
            [
                "origin": string("The caller's origin."), "options": object("The request options (L3 JSON)."),
                "user": string("Use the passkey of this user.name when several match."),
                "credentialId": string("Use this passkey (base64url) when several match."),
            ], required: ["origin", "options"]),
        tool(
            "list", "List the store's passkeys (W3C credential parameters, without private keys).",
            ["rpId": string("Only this relying party's.")], required: [], readOnly: true),
        tool(
            "delete", "Delete a passkey from the store.", ["credentialId": string("The credential ID, base64url.")],
            required: ["credentialId"]),
        tool(
            "events",
            "What happened to the authenticator's passkeys, as Chrome DevTools' WebAuthn domain reports it: "
                + "credentialAdded, credentialAsserted, credentialUpdated, credentialDeleted, each with seq, "
                + "credentialId, rpId and the page's origin; answers {events, last}. Pass last back as after.",
            ["after": ControlMCPTool.integer("Only events numbered after this (0: all that are kept).")],
            required: [], readOnly: true),
        tool(
            "conditional",
            "Pick a passkey for a page's pending conditional get (autofill), as a person would; waits up to "
                + "timeout ms for one. Answers {requestId, origin, rpId, credential}.",
            [
                "credentialId": string("The passkey to pick (base64url); the most recent when absent."),
                "user": string("Pick the passkey of this user.name."),
                "timeout": ControlMCPTool.integer("Milliseconds to wait for a request (default 10000)."),
            ], required: []),
        tool(
            "signup", "Sign a new virtual user up at an Auth0 tenant with a passkey (Auth0 native passkey signup).",
            [
                "tenant": object("{clientId, baseURL | domain, audience?, scope?, connection?}"),
                "userId": string("An existing virtual user instead of a new one."),
                "email": string("The user's email."), "name": string("The user's name."),
                "username": string("The username."), "phone": string("The phone number."),
            ], required: []),
        tool(
            "login", "Log a virtual user in with a passkey (Auth0 native passkey login).",
            [
                "tenant": object("The tenant, for a new virtual user."), "userId": string("An existing virtual user."),
                "user": string("Use the passkey of this user.name."),
            ], required: []),
        tool(
            "enroll", "Enroll one more passkey for a logged-in virtual user through My Account.",
            ["userId": string("The virtual user.")], required: ["userId"]),
        tool(
            "token", "An access token of the virtual user's session, or for an API audience.",
            [
                "userId": string("The virtual user."), "audience": string("The API's audience."),
                "scope": string("The scopes."),
            ], required: ["userId"], readOnly: true),
        tool(
            "logout", "Log a virtual user out, revoking the refresh token by default.",
            ["userId": string("The virtual user."), "revoke": boolean("Revoke the refresh token.")],
            required: ["userId"]),
    ]

    private static func tool(
        _ name: String, _ description: String, _ properties: [String: Value], required: [String],
        readOnly: Bool = false
    ) -> Tool {
        ControlMCPTool.describing(name, description, properties, required: required, readOnly: readOnly)
    }

    private static func string(_ description: String) -> Value { ControlMCPTool.string(description) }
    private static func boolean(_ description: String) -> Value { ControlMCPTool.boolean(description) }
    private static func object(_ description: String) -> Value { ControlMCPTool.object(description) }
}
