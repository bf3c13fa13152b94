import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorMakeCredential` (CTAP 2.1 §6.1): decodes the request, checks it in the
    /// order of §6.1.2, asks for user presence, and lets the authenticator make the credential.
    ///
    /// The user is verified (UV set) when the pinUvAuthParam verifies under a pinUvAuthToken
    /// with the `mc` permission for this RP ID, or, on a device with built-in user verification,
    /// when the `uv` option asks for it and the user passes; with a PIN set, a discoverable
    /// credential (or any, under alwaysUv) needs one of them (`CTAP2_ERR_PUAT_REQUIRED`).
    ///
    /// ```
    /// request  = { 0x01 clientDataHash: bytes, 0x02 rp: {"id": text, ? "name": text},
    ///              0x03 user: {"id": bytes, ? "name": text, ? "displayName": text},
    ///              0x04 pubKeyCredParams: [{"alg": int, "type": text}], ? 0x05 excludeList,
    ///              ? 0x06 extensions: {text => any}, ? 0x07 options: {text => bool},
    ///              ? 0x08 pinUvAuthParam: bytes, ? 0x09 pinUvAuthProtocol: uint,
    ///              ? 0x0A enterpriseAttestation: uint }
    /// response = { 0x01 fmt: text, 0x02 authData: bytes, 0x03 attStmt: map, ? 0x04 epAtt: bool,
    ///              ? 0x05 largeBlobKey: bytes }
    /// ```
    func makeCredential(_ parameters: CTAPParameters, _ transaction: CTAPTransaction) async throws(CTAPError) -> CBOR {
        let clientDataHash = try parameters.required(1, "clientDataHash").ctapBytes("clientDataHash")
        let rp = try parameters.required(2, "rp")
        _ = try rp.ctapMap("rp")
        let rpID = try rp.ctapMember("id", of: "rp").ctapText("rp.id")
        let rpName = try rp["name"]?.ctapText("rp.name")
        let user = try parameters.required(3, "user")
        _ = try user.ctapMap("user")
        let userID = try user.ctapMember("id", of: "user").ctapBytes("user.id")
        let userName = try user["name"]?.ctapText("user.name") ?? ""
        let displayName = try user["displayName"]?.ctapText("user.displayName") ?? ""
        let algorithms = try Self.algorithms(parameters.required(4, "pubKeyCredParams"))
        let excludeList = try parameters.credentialIDs(5, "excludeList")
        let extensions = try parameters[6]?.ctapMap("extensions") ?? [:]
        let options = try parameters.options(7)
        let hasPinUvAuthParam = try await pinUvAuthPreflight(
            parameters, paramKey: 8, protocolKey: 9,
            presence: UserPresenceRequest(command: .makeCredential, rpID: rpID), transaction)
        let enterpriseAttestation = try parameters[10]?.ctapInt("enterpriseAttestation")

        // §6.1.2 step 3: no supported algorithm among those offered.
        let supported = Set(authenticator.info.algorithms.map(\.rawValue))
        guard algorithms.contains(where: supported.contains) else {
            throw CTAPError(.unsupportedAlgorithm, "none of \(algorithms) is supported")
        }
        // §6.1.2 step 4 and 5: options.
        let info = authenticator.info
        if options["up"] == false {
            throw CTAPError(.invalidOption, "makeCredential always tests user presence")
        }
        let residentKey = options["rk"] ?? false
        if residentKey, !info.supportsResidentKeys {
            throw CTAPError(.unsupportedOption, "this authenticator keeps no discoverable credentials")
        }
        // A pinUvAuthParam makes "uv" moot (§6.1.2 step 5); "uv" asks for built-in UV.
        let uvOption = options["uv"] == true && !hasPinUvAuthParam
        if uvOption, builtInUserVerification == nil {
            throw CTAPError(.invalidOption, "this device verifies users by PIN only: send a pinUvAuthParam")
        }
        if let enterpriseAttestation, !(1...2).contains(enterpriseAttestation) {
            throw CTAPError(.invalidOption, "enterpriseAttestation is 1 or 2")
        }
        // §6.1.2 steps 6 and 11: the PIN, as pinUvAuthToken, or built-in UV.
        let userVerification = try await verifiedUser(
            .makeCredential, rpID: rpID, clientDataHash: clientDataHash, parameters: parameters, paramKey: 8,
            protocolKey: 9, mayGoUnverified: !residentKey, uvOption: uvOption,
            UserPresenceRequest(command: .makeCredential, rpID: rpID), transaction)

        var request = MakeCredentialRequest(
            clientDataHash: clientDataHash, rpID: rpID, rpName: rpName,
            user: .init(id: userID, name: userName, displayName: displayName), algorithms: algorithms,
            excludeList: excludeList, residentKey: residentKey, userVerification: userVerification,
            attestationFormatsPreference: [])
        request.enterpriseAttestation = enterpriseAttestation
        try Self.creationExtensions(extensions, carried: info.extensions, into: &request)

        // §6.1.2 step 13: user presence, before anything is stored or an exclusion is revealed.
        try await presence.require(UserPresenceRequest(command: .makeCredential, rpID: rpID), in: transaction)
        let response = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.makeCredential(request)
        }
        if userVerification {
            spendPinUvAuthToken()
        }
        let attestation = response.attestationObject
        var answer: [CBOR: CBOR] = [
            1: .text(attestation.format.rawValue), 2: .bytes(attestation.authenticatorData.bytes),
            3: attestation.statement,
        ]
        if response.enterpriseAttestation {
            answer[4] = true
        }
        if let key = response.largeBlobKey {
            answer[5] = .bytes(key.withUnsafeBytes { Array($0) })
        }
        return .map(answer)
    }

    /// The algorithms of `pubKeyCredParams`, in the client's order; entries of a type other than
    /// `public-key` are skipped (WebAuthn L3 §5.3), malformed ones refused.
    static func algorithms(_ item: CBOR) throws(CTAPError) -> [Int] {
        var algorithms: [Int] = []
        for parameter in try item.ctapArray("pubKeyCredParams") {
            _ = try parameter.ctapMap("pubKeyCredParams")
            let type = try parameter.ctapMember("type", of: "pubKeyCredParams").ctapText("pubKeyCredParams.type")
            let algorithm = try parameter.ctapMember("alg", of: "pubKeyCredParams").ctapInt("pubKeyCredParams.alg")
            if type == "public-key" { algorithms.append(algorithm) }
        }
        return algorithms
    }

    /// The creation extensions this layer carries (§12.5 hmac-secret, §12.1 credProtect, §12.2
    /// credBlob, §12.3 largeBlobKey), when the authenticator implements them; others are ignored,
    /// as §6.1 says.
    static func creationExtensions(
        _ extensions: [CBOR: CBOR], carried: [String], into request: inout MakeCredentialRequest
    ) throws(CTAPError) {
        if carried.contains("hmac-secret"), let item = extensions["hmac-secret"] {
            request.hmacSecret = try item.ctapBool("hmac-secret")
        }
        if carried.contains("credProtect"), let item = extensions["credProtect"] {
            let level = try item.ctapInt("credProtect")
            guard let policy = UInt8(exactly: level).flatMap(CredentialProtectionPolicy.init(rawValue:)) else {
                throw CTAPError(.invalidParameter, "credProtect is 1, 2 or 3")
            }
            request.credentialProtection = policy
        }
        if carried.contains("credBlob"), let item = extensions["credBlob"] {
            request.credBlob = try item.ctapBytes("credBlob")
        }
        if carried.contains("largeBlobKey"), let item = extensions["largeBlobKey"] {
            // §12.3: the input is true or absent.
            guard try item.ctapBool("largeBlobKey") else {
                throw CTAPError(.invalidOption, "largeBlobKey is true when present")
            }
            request.largeBlobKey = true
        }
    }
}
