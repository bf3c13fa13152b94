import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorGetAssertion` (CTAP 2.1 §6.2): decodes the request, checks its options,
    /// asks for user presence when `up` is true, and lets the authenticator sign. The user is
    /// verified (UV set) when the pinUvAuthParam verifies under a pinUvAuthToken with the `ga`
    /// permission for this RP ID, or, on a device with built-in user verification, when the `uv`
    /// option asks for it and the user passes; otherwise the assertion is unverified, unless
    /// alwaysUv demands verification.
    ///
    /// Without an allow list and with a credential store, the device has no display to choose
    /// among several discoverable credentials: the newest signs, the response counts them in
    /// `numberOfCredentials`, and `authenticatorGetNextAssertion` returns the others (§6.2.2
    /// step 7, §6.3). Without a store the ``Authenticator`` chooses one itself.
    ///
    /// ```
    /// request  = { 0x01 rpId: text, 0x02 clientDataHash: bytes, ? 0x03 allowList,
    ///              ? 0x04 extensions: {text => any}, ? 0x05 options: {text => bool},
    ///              ? 0x06 pinUvAuthParam: bytes, ? 0x07 pinUvAuthProtocol: uint }
    /// extensions = { ? "hmac-secret": {1: COSE_Key, 2: bytes, 3: bytes, ? 4: uint},
    ///                ? "getCredBlob": bool, ? "largeBlobKey": true }
    /// response = { 0x01 credential: {"id": bytes, "type": "public-key"}, 0x02 authData: bytes,
    ///              0x03 signature: bytes, ? 0x04 user: {"id": bytes}, ? 0x05 numberOfCredentials: uint,
    ///              ? 0x07 largeBlobKey: bytes }
    /// ```
    func getAssertion(_ parameters: CTAPParameters, _ transaction: CTAPTransaction) async throws(CTAPError) -> CBOR {
        let rpID = try parameters.required(1, "rpId").ctapText("rpId")
        let clientDataHash = try parameters.required(2, "clientDataHash").ctapBytes("clientDataHash")
        let allowList = try parameters.credentialIDs(3, "allowList")
        let extensions = try parameters[4]?.ctapMap("extensions") ?? [:]
        let options = try parameters.options(5)
        let hasPinUvAuthParam = try await pinUvAuthPreflight(
            parameters, paramKey: 6, protocolKey: 7,
            presence: UserPresenceRequest(command: .getAssertion, rpID: rpID), transaction)

        // §6.2.2 step 5: rk is not an option of getAssertion; a pinUvAuthParam makes "uv" moot,
        // and "uv" asks for built-in UV.
        if options["rk"] != nil {
            throw CTAPError(.unsupportedOption, "rk is not an option of getAssertion")
        }
        let uvOption = options["uv"] == true && !hasPinUvAuthParam
        if uvOption, builtInUserVerification == nil {
            throw CTAPError(.invalidOption, "this device verifies users by PIN only: send a pinUvAuthParam")
        }
        // §6.2.2 steps 6 and 11: the PIN, as pinUvAuthToken, or built-in UV.
        let userPresence = options["up"] ?? true
        let userVerification = try await verifiedUser(
            .getAssertion, rpID: rpID, clientDataHash: clientDataHash, parameters: parameters, paramKey: 6,
            protocolKey: 7, mayGoUnverified: true, uvOption: uvOption, userPresence: userPresence,
            UserPresenceRequest(command: .getAssertion, rpID: rpID), transaction)
        var request = GetAssertionRequest(
            rpID: rpID, clientDataHash: clientDataHash, allowList: allowList, userPresence: userPresence,
            userVerification: userVerification)
        let carried = authenticator.info.extensions
        if carried.contains("credBlob"), let item = extensions["getCredBlob"] {
            request.getCredBlob = try item.ctapBool("getCredBlob")
        }
        if carried.contains("largeBlobKey"), let item = extensions["largeBlobKey"] {
            // §12.3: the input is true or absent.
            guard try item.ctapBool("largeBlobKey") else {
                throw CTAPError(.invalidOption, "largeBlobKey is true when present")
            }
            request.largeBlobKey = true
        }
        if carried.contains("hmac-secret"), let item = extensions["hmac-secret"] {
            // §12.5: {1: keyAgreement, 2: saltEnc, 3: saltAuth, ? 4: pinUvAuthProtocol}.
            _ = try item.ctapMap("hmac-secret")
            request.hmacSecret = try await authenticating { () throws(AuthenticatorError) in
                try HMACSecretInput(cbor: item)
            }
        }

        // §6.2.2 step 9: user presence, when asked for.
        if userPresence {
            try await presence.require(UserPresenceRequest(command: .getAssertion, rpID: rpID), in: transaction)
        }
        // §6.2.2 step 7: without a display, the newest of several discoverable credentials signs
        // and the rest wait for authenticatorGetNextAssertion.
        let candidates =
            allowList.isEmpty ? try await discoverableCandidates(rpID: rpID, userVerified: userVerification) : []
        var signing = request
        if candidates.count > 1 {
            signing.allowList = [candidates[0]]
        }
        let response = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.getAssertion(signing)
        }
        // §6.2.2 step 12: only an assertion the user was present for spends the token; a silent
        // one (up = false), as clients send to filter an allow list first, leaves it whole.
        if userVerification, userPresence {
            spendPinUvAuthToken()
        }
        if candidates.count > 1 {
            pendingAssertions = PendingAssertions(
                request: request, remaining: Array(candidates.dropFirst()),
                expires: clock.now().advanced(by: Self.nextAssertionWindow))
        }
        return Self.assertionResponse(response, numberOfCredentials: candidates.count > 1 ? candidates.count : nil)
    }
}
