/// The steps §7.1 (registration) and §7.2 (authentication) of WebAuthn L3 share: the client data
/// checks, the RP ID hash, and the flags.
extension RelyingParty {
    /// Parses client data and checks `type`, `challenge`, `origin`, `crossOrigin` and `topOrigin`
    /// (§7.1 steps 5–11, §7.2 steps 8–14).
    func checkClientData(
        _ bytes: [UInt8], type: CollectedClientData.CeremonyType, challenge: [UInt8]
    ) throws(WebAuthnError) -> CollectedClientData {
        let clientData = try CollectedClientData(bytes: bytes)
        guard clientData.type == type else {
            throw WebAuthnError(
                .wrongClientDataType, "client data type is \"\(clientData.type)\", expected \"\(type)\"")
        }
        guard clientData.challenge == Base64URL.encode(challenge) else {
            throw WebAuthnError(.wrongChallenge, "client data carries another challenge than the one issued")
        }
        guard origins.contains(clientData.origin) else {
            throw WebAuthnError(.wrongOrigin, "origin \(clientData.origin) is not one of \(origins)")
        }
        if clientData.crossOrigin == true, !allowsCrossOrigin {
            throw WebAuthnError(.crossOriginNotAllowed, "the ceremony ran in a cross-origin iframe")
        }
        if let topOrigin = clientData.topOrigin {
            // Step 11.1 (§7.2 step 14.1): a top origin means an iframe that is not same-origin with its ancestors.
            guard allowsCrossOrigin else {
                throw WebAuthnError(.crossOriginNotAllowed, "the ceremony ran in an iframe under \(topOrigin)")
            }
            guard topOrigins.contains(topOrigin) else {
                throw WebAuthnError(.wrongTopOrigin, "top origin \(topOrigin) is not one of \(topOrigins)")
            }
        }
        if case .object(let binding)? = clientData.otherMembers["tokenBinding"],
            let status = binding["status"]?.stringValue, !["present", "supported"].contains(status)
        {
            throw WebAuthnError(.unsupportedTokenBindingStatus, "token binding status \"\(status)\" is not defined")
        }
        return clientData
    }

    /// Checks `rpIdHash`, UP, UV and the BE/BS pair (§7.1 steps 14–17, §7.2 steps 15–18).
    ///
    /// A hash that matches no RP ID is reported as `wrong-rp-id` when the origin itself lies
    /// outside every RP ID (the relying party is asking about another site), and as
    /// `wrong-rp-id-hash` otherwise (the authenticator scoped the credential elsewhere).
    func checkAuthenticatorData(
        _ authenticatorData: AuthenticatorData, clientData: CollectedClientData
    ) throws(WebAuthnError) {
        guard idHashes.contains(authenticatorData.rpIDHash) else {
            if let origin = try? WebOrigin(clientData.origin), !ids.contains(where: origin.isWithin(rpID:)) {
                throw WebAuthnError(.wrongRPID, "origin \(clientData.origin) is not within RP ID \(ids)")
            }
            throw WebAuthnError(.wrongRPIDHash, "rpIdHash is not SHA-256 of RP ID \(ids)")
        }
        let flags = authenticatorData.flags
        if requireUserPresence, !flags.contains(.userPresent) {
            throw WebAuthnError(.upFlagMissing, "the user was not present (UP clear)")
        }
        if requireUserVerification, !flags.contains(.userVerified) {
            throw WebAuthnError(.uvRequiredButNotSet, "user verification is required but UV is clear")
        }
        if flags.contains(.backupState), !flags.contains(.backupEligible) {
            throw WebAuthnError(.backupStateWithoutEligibility, "BS is set on a credential that is not BE (§6.1.3)")
        }
    }
}
