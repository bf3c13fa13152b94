import MCP

extension PasskeyMCP {
    /// The tools, each with a JSON Schema of its arguments.
    static let tools: [Tool] = [
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
            "inspect", "Decode a WebAuthn response, attestation object, authenticator data or client data.",
            ["input": string("RegistrationResponseJSON / AuthenticationResponseJSON text, or base64url / hex bytes.")],
            required: ["input"], readOnly: true),
        tool(
            "verify_registration", "Verify a RegistrationResponseJSON as a relying party would (WebAuthn L3 §7.1).",
            [
                "response": object("The RegistrationResponseJSON."), "challenge": string("The challenge, base64url."),
                "origin": string("The expected origin."), "rpId": string("The RP ID."),
                "requireUserVerification": boolean("Require the UV flag."),
            ], required: ["response", "challenge", "origin", "rpId"], readOnly: true),
        tool(
            "verify_authentication",
            "Verify an AuthenticationResponseJSON against a stored public key as a relying party would (WebAuthn L3 §7.2).",
            [
                "response": object("The AuthenticationResponseJSON."), "challenge": string("The challenge, base64url."),
                "origin": string("The expected origin."), "rpId": string("The RP ID."),
                "publicKey": string("The credential's COSE_Key, base64url (verify_registration's publicKey)."),
                "signCount": number("The stored signature counter."),
                "userHandle": string("The owner's user handle, base64url, for a discoverable login."),
                "requireUserVerification": boolean("Require the UV flag."),
            ], required: ["response", "challenge", "origin", "rpId", "publicKey"], readOnly: true),
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
        Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            ]),
            annotations: .init(readOnlyHint: readOnly))
    }

    private static func string(_ description: String) -> Value {
        ["type": "string", "description": .string(description)]
    }

    private static func number(_ description: String) -> Value {
        ["type": "integer", "description": .string(description)]
    }

    private static func boolean(_ description: String) -> Value {
        ["type": "boolean", "description": .string(description)]
    }

    private static func object(_ description: String) -> Value {
        ["type": ["object", "string"], "description": .string(description)]
    }
}
