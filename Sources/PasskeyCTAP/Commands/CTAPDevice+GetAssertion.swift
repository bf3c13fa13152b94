import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorGetAssertion` (CTAP 2.1 §6.2): decodes the request, checks its options,
    /// asks for user presence when `up` is true, and lets the authenticator sign. The user is
    /// verified (UV set) when the pinUvAuthParam verifies under a pinUvAuthToken with the `ga`
    /// permission for this RP ID; without one the assertion is unverified, unless alwaysUv
    /// demands a token.
    ///
    /// The ``Authenticator`` chooses among several discoverable credentials itself, as an
    /// authenticator with a display does, so the response has no `numberOfCredentials` and
    /// `authenticatorGetNextAssertion` has nothing to return (§6.2.2 step 12, §6.3).
    ///
    /// ```
    /// request  = { 0x01 rpId: text, 0x02 clientDataHash: bytes, ? 0x03 allowList,
    ///              ? 0x04 extensions: {text => any}, ? 0x05 options: {text => bool},
    ///              ? 0x06 pinUvAuthParam: bytes, ? 0x07 pinUvAuthProtocol: uint }
    /// extensions = { ? "hmac-secret": {1: COSE_Key, 2: bytes, 3: bytes, ? 4: uint},
    ///                ? "getCredBlob": bool, ? "largeBlobKey": true }
    /// response = { 0x01 credential: {"id": bytes, "type": "public-key"}, 0x02 authData: bytes,
    ///              0x03 signature: bytes, ? 0x04 user: {"id": bytes}, ? 0x07 largeBlobKey: bytes }
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
        // and the device has no built-in UV.
        if options["rk"] != nil {
            throw CTAPError(.unsupportedOption, "rk is not an option of getAssertion")
        }
        if options["uv"] == true, !hasPinUvAuthParam {
            throw CTAPError(.invalidOption, "this device verifies users by PIN only: send a pinUvAuthParam")
        }
        // §6.2.2 steps 6 and 11: the PIN, as pinUvAuthToken.
        let userVerification = try await verifiedUser(
            .getAssertion, rpID: rpID, clientDataHash: clientDataHash, parameters: parameters, paramKey: 6,
            protocolKey: 7, mayGoUnverified: true)
        let userPresence = options["up"] ?? true
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
        let response = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.getAssertion(request)
        }
        // §6.2.2 step 14: only an assertion with user presence spends the token; a pre-flight
        // (up: false, as python-fido2's and libfido2's clients send) leaves it for the real one.
        if userVerification, userPresence {
            spendPinUvAuthToken()
        }
        var answer: [CBOR: CBOR] = [
            1: ["id": .bytes(response.credentialID), "type": "public-key"],
            2: .bytes(response.authenticatorData.bytes), 3: .bytes(response.signature),
        ]
        if let userHandle = response.userHandle {
            answer[4] = ["id": .bytes(userHandle)]
        }
        if let key = response.largeBlobKey {
            answer[7] = .bytes(key.withUnsafeBytes { Array($0) })
        }
        return .map(answer)
    }
}
