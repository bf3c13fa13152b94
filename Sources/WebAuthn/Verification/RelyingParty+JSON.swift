public import FoundationEssentials

extension RelyingParty {
    /// Verifies a registration given as `PublicKeyCredential.toJSON()` output (WebAuthn L3 §7.1).
    ///
    /// - Parameters:
    ///   - response: the `RegistrationResponseJSON` the client sent.
    ///   - challenge: the challenge issued for this ceremony.
    ///   - time: the instant at which attestation certificates must be valid.
    /// - Returns: what to store about the new credential.
    /// - Throws: `WebAuthnError` whose code names the failed check; `wrong-credential-type` when
    ///   the response's `type` is not `public-key`; `credential-not-allowed` when `rawId` is not
    ///   the credential ID the authenticator data carries.
    public func verifyRegistration(
        _ response: RegistrationResponseJSON, challenge: [UInt8], at time: Date = Date()
    ) throws(WebAuthnError) -> VerifiedRegistration {
        try Self.checkCredentialType(response.type)
        let verified = try verifyRegistration(
            clientDataJSON: response.response.clientDataJSON.bytes,
            attestationObject: response.response.attestationObject.bytes, challenge: challenge, at: time)
        guard verified.credentialID == response.rawId.bytes else {
            throw WebAuthnError(.credentialNotAllowed, "rawId differs from the credential ID in authData")
        }
        return verified
    }

    /// Verifies an assertion given as `PublicKeyCredential.toJSON()` output (WebAuthn L3 §7.2).
    ///
    /// - Parameters:
    ///   - response: the `AuthenticationResponseJSON` the client sent.
    ///   - challenge: the challenge issued for this ceremony.
    ///   - credential: the stored record of the credential `response.rawId` names.
    ///   - allowCredentials: the `allowCredentials` IDs the options listed, if any.
    ///   - userIdentified: when the user was identified: before the ceremony, or by this response.
    /// - Returns: the new signature counter and flags.
    /// - Throws: `WebAuthnError` whose code names the failed check; `wrong-credential-type` when
    ///   the response's `type` is not `public-key`.
    public func verifyAuthentication(
        _ response: AuthenticationResponseJSON, challenge: [UInt8], credential: CredentialRecord,
        allowCredentials: [[UInt8]] = [], userIdentified: UserIdentification = .beforeCeremony
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        try Self.checkCredentialType(response.type)
        return try verifyAuthentication(
            credentialID: response.rawId.bytes, clientDataJSON: response.response.clientDataJSON.bytes,
            authenticatorData: response.response.authenticatorData.bytes,
            signature: response.response.signature.bytes, userHandle: response.response.userHandle?.bytes,
            challenge: challenge, credential: credential, allowCredentials: allowCredentials,
            userIdentified: userIdentified)
    }

    /// Checks that the response is a `PublicKeyCredential`'s, whose `type` is always `public-key`
    /// (WebAuthn L3 §5.1, §5.8.2).
    ///
    /// §7.1 and §7.2 start from the credential `navigator.credentials` returned (step 3 of each
    /// aborts when its `response` is not of the ceremony's kind); a response that arrives as JSON
    /// carries its type as a string any client can forge, so it is checked before anything else,
    /// as py_webauthn does. The type is an open enumeration that decodes any string, `""` included.
    ///
    /// - Throws: `wrong-credential-type` for any other type.
    private static func checkCredentialType(_ type: PublicKeyCredentialType) throws(WebAuthnError) {
        guard type == .publicKey else {
            throw WebAuthnError(
                .wrongCredentialType, "credential type is \"\(type.rawValue.prefix(64))\", expected \"public-key\"")
        }
    }
}
