extension RelyingParty {
    /// Verifies an authentication assertion (WebAuthn L3 §7.2 "Verifying an Authentication
    /// Assertion").
    ///
    /// The caller looks the credential record up by `credentialID` (step 6) and passes it in;
    /// this checks the rest: that the credential was allowed, that the user handle belongs to the
    /// record, client data, RP ID hash, UP/UV, BE/BS, the signature, and the signature counter.
    ///
    /// What step 6 demands depends on when the relying party identified the user
    /// (``UserIdentification``): in a discoverable-credential login (`.byResponse`) an assertion
    /// without a user handle is `user-handle-missing`.
    ///
    /// - Parameters:
    ///   - credentialID: the credential's `rawId`.
    ///   - clientDataJSON: `response.clientDataJSON`, the bytes as received.
    ///   - authenticatorData: `response.authenticatorData`.
    ///   - signature: `response.signature`.
    ///   - userHandle: `response.userHandle`, when the response carries one.
    ///   - challenge: the challenge issued for this ceremony.
    ///   - credential: the stored credential record.
    ///   - allowCredentials: the `allowCredentials` IDs the options listed, if any.
    ///   - userIdentified: when the user was identified: before the ceremony, or by this response.
    /// - Returns: the new signature counter and flags, to update the credential record with.
    /// - Throws: `WebAuthnError` whose code names the failed check.
    public func verifyAuthentication(
        credentialID: [UInt8], clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8],
        userHandle: [UInt8]?, challenge: [UInt8], credential: CredentialRecord, allowCredentials: [[UInt8]] = [],
        userIdentified: UserIdentification = .beforeCeremony
    ) throws(WebAuthnError) -> VerifiedAuthentication {
        guard credentialID == credential.id else {
            throw WebAuthnError(.credentialNotAllowed, "the assertion is by another credential than the record's")
        }
        guard allowCredentials.isEmpty || allowCredentials.contains(credentialID) else {
            throw WebAuthnError(.credentialNotAllowed, "the credential is not in allowCredentials")
        }
        if userIdentified == .byResponse, userHandle == nil {
            throw WebAuthnError(
                .userHandleMissing, "a login without allowCredentials needs the response's user handle (§7.2 step 6)")
        }
        if let userHandle, let owner = credential.userHandle, userHandle != owner {
            throw WebAuthnError(.userHandleMismatch, "the user handle does not belong to the credential's owner")
        }
        let clientData = try checkClientData(clientDataJSON, type: .get, challenge: challenge)
        let authData = try AuthenticatorData(bytes: authenticatorData)
        try checkAuthenticatorData(authData, clientData: clientData)
        if let backupEligible = credential.backupEligible,
            backupEligible != authData.flags.contains(.backupEligible)
        {
            throw WebAuthnError(.backupEligibilityChanged, "BE changed since registration (§6.1.3)")
        }
        // The record's key, decoded and imported once while it stays among the recent ones.
        let publicKey = try ImportedPublicKeys.shared.prepared(encoded: credential.publicKey)
        guard try publicKey.isValidSignature(signature, for: authData.bytes, followedBy: clientData.hash) else {
            throw WebAuthnError(.badSignature, "the assertion signature does not verify with the credential key")
        }
        // §7.2 step 22: a counter that does not grow signals a cloned authenticator, unless both are 0.
        if authData.signCount != 0 || credential.signCount != 0, authData.signCount <= credential.signCount {
            throw WebAuthnError(
                .signCountNotIncreased,
                "signCount \(authData.signCount) is not above the stored \(credential.signCount): possible clone")
        }
        return VerifiedAuthentication(
            credentialID: credentialID, signCount: authData.signCount, authenticatorData: authData,
            clientData: clientData)
    }
}
