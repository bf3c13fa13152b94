public import WebAuthn

extension WebAuthnClient {
    /// Registers a new credential (`navigator.credentials.create`, WebAuthn L3 §5.1.3).
    ///
    /// - Parameters:
    ///   - options: the relying party's creation options.
    ///   - origin: the caller's origin.
    ///   - topOrigin: the top-level origin when the caller is a cross-origin iframe; `nil` for a
    ///     same-origin caller.
    ///   - mediation: `conditional` makes the credential without asking the user (WebAuthn L3
    ///     §5.1.3, CTAP 2.2 §6.1 option `up` false): UP and UV are clear, and a request that
    ///     requires user verification is refused.
    /// - Returns: the registration response, as `PublicKeyCredential.toJSON()` gives it.
    /// - Throws: ``WebAuthnClientError``: `SecurityError` for the origin or RP ID (with
    ///   ``relatedOrigins``, also when the RP ID's related origins do not list the origin),
    ///   `SyntaxError` for malformed options, `NotSupportedError` when no algorithm is supported,
    ///   `InvalidStateError` for an excluded credential, `NotAllowedError` otherwise.
    public func create(
        _ options: PublicKeyCredentialCreationOptionsJSON, origin: WebOrigin, topOrigin: WebOrigin? = nil,
        mediation: CredentialMediation = .optional
    ) async throws(WebAuthnClientError) -> RegistrationResponseJSON {
        let rpID = try await CallerOrigin.rpID(options.rp.id, for: origin, relatedOrigins: relatedOrigins)
        try Self.check(challenge: options.challenge)
        guard (1...64).contains(options.user.id.bytes.count) else {
            throw WebAuthnClientError(.syntax, "user.id is 1 to 64 bytes, not \(options.user.id.bytes.count)")
        }
        let info = authenticator.info
        if let wanted = options.authenticatorSelection?.authenticatorAttachment, wanted != info.attachment,
            wanted == .platform || wanted == .crossPlatform
        {
            throw WebAuthnClientError(
                .notAllowed, "the relying party wants a \(wanted) authenticator; this one is \(info.attachment)")
        }
        let algorithms = try Self.algorithms(options.pubKeyCredParams)
        let residentKey = try Self.residentKey(options.authenticatorSelection, info: info)
        var verification = try Self.userVerification(options.authenticatorSelection?.userVerification, info: info)
        if mediation == .conditional {
            guard !verification.required else {
                throw WebAuthnClientError(
                    .notAllowed, "a conditional create cannot verify the user, and this one requires it")
            }
            verification.ask = false
        }
        let prf = options.extensions?.prf
        if prf?.evalByCredential != nil {
            throw WebAuthnClientError(.notSupported, "prf.evalByCredential has no meaning when creating a credential")
        }
        let ctap = try CTAPExtensionInputs(options.extensions)
        let largeBlob = try LargeBlobExtension(options.extensions)
        let askLargeBlobKey = try largeBlob?.checkCreation(info) ?? false
        if let policy = ctap.credentialProtection, !info.extensions.contains("credProtect"),
            ctap.enforceCredentialProtection, policy != .userVerificationOptional
        {
            throw WebAuthnClientError(
                .notAllowed, "the authenticator cannot enforce credentialProtectionPolicy \(policy.name) (credProtect)")
        }
        let clientData = Self.clientData(.create, challenge: options.challenge, origin: origin, topOrigin: topOrigin)
        var request = MakeCredentialRequest(
            clientDataHash: clientData.hash, rpID: rpID, rpName: options.rp.name,
            user: .init(id: options.user.id.bytes, name: options.user.name, displayName: options.user.displayName),
            algorithms: algorithms,
            excludeList: (options.excludeCredentials ?? []).filter { $0.type == .publicKey }.map(\.id.bytes),
            residentKey: residentKey, userVerification: verification.ask, hmacSecret: prf != nil,
            attestationFormatsPreference: Self.attestationFormats(options))
        request.userPresence = mediation != .conditional
        if info.extensions.contains("credProtect") {
            request.credentialProtection = ctap.credentialProtection
        }
        if info.extensions.contains("credBlob") {
            request.credBlob = ctap.credBlob
        }
        request.minPINLength = ctap.minPINLength && info.extensions.contains("minPinLength")
        request.largeBlobKey = askLargeBlobKey
        if options.attestation == .enterprise {
            request.enterpriseAttestation = 1  // vendor-facilitated: the authenticator holds the RP ID list
        }
        var prfSecret: PINUVAuthSharedSecret?
        if let values = prf?.eval, info.extensions.contains("hmac-secret-mc"),
            let (input, sharedSecret) = try await PRFEvaluation.input(values, client: self)
        {
            request.hmacSecretMC = input
            prfSecret = sharedSecret
        }
        let response = try await asking(
            request, droppingVerification: !verification.required, \.userVerification,
            authenticator.makeCredential)
        let attestationObject = Self.conveyed(response.attestationObject, options.attestation)
        let credential = response.credential
        var extensionResults = try Self.creationExtensionResults(
            options.extensions, ctap, response, prfSecret: prfSecret)
        if largeBlob != nil {
            extensionResults.otherExtensions["largeBlob"] = .object(["supported": .bool(response.largeBlobKey != nil)])
        }
        // The software authenticator hands over the key it encoded; another's is decoded here.
        let publicKey = response.encodedPublicKey?.key ?? (try? credential.publicKey)
        let spki = response.encodedPublicKey?.spki ?? (try? publicKey?.spki)
        return RegistrationResponseJSON(
            rawId: Base64URL(credential.credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL(clientData.bytes),
                authenticatorData: Base64URL(attestationObject.authenticatorData.bytes),
                transports: Array(Set(info.transports)).sorted { $0.rawValue < $1.rawValue },
                publicKey: spki.map { Base64URL($0) },
                publicKeyAlgorithm: publicKey?.algorithm?.rawValue,
                attestationObject: Base64URL(attestationObject.bytes)),
            authenticatorAttachment: info.attachment,
            clientExtensionResults: extensionResults)
    }

    /// The algorithms to offer: the `public-key` entries in order, or ES256 and RS256 when the
    /// list is empty (WebAuthn L3 §5.1.3 step 10).
    static func algorithms(_ parameters: [PublicKeyCredentialParameters]) throws(WebAuthnClientError) -> [Int] {
        guard !parameters.isEmpty else {
            return [COSEAlgorithm.es256.rawValue, COSEAlgorithm.rs256.rawValue]
        }
        let algorithms = parameters.filter { $0.type == .publicKey }.map(\.alg)
        guard !algorithms.isEmpty else {
            throw WebAuthnClientError(.notSupported, "pubKeyCredParams has no entry of type \"public-key\"")
        }
        return algorithms
    }

    /// The `rk` option from `residentKey` (or the older `requireResidentKey`), WebAuthn L3
    /// §5.4.4 and §5.1.3 step 20.
    static func residentKey(_ selection: AuthenticatorSelectionCriteria?, info: AuthenticatorInfo)
        throws(WebAuthnClientError) -> Bool
    {
        let requirement = selection?.residentKey ?? (selection?.requireResidentKey == true ? .required : .discouraged)
        switch requirement {
        case .required:
            guard info.supportsResidentKeys else {
                throw WebAuthnClientError(
                    .notSupported, "a discoverable credential is required and the authenticator cannot keep one")
            }
            return true
        case .preferred:
            return info.supportsResidentKeys
        default:
            return false
        }
    }

    /// The formats to ask the authenticator for: `none` when the relying party wants no
    /// attestation, else its `attestationFormats`, else `packed` (CTAP 2.2 §6.1
    /// `attestationFormatsPreference`).
    static func attestationFormats(_ options: PublicKeyCredentialCreationOptionsJSON) -> [AttestationFormat] {
        let conveyance = options.attestation ?? AttestationConveyancePreference.none
        guard conveyance != .none else {
            return [.none]
        }
        let formats = (options.attestationFormats ?? []).map(AttestationFormat.init(rawValue:))
        return formats.isEmpty ? [.packed] : formats
    }

    /// The attestation object conveyed to the relying party (WebAuthn L3 §5.1.3 step 22.1.2):
    /// when it asked for `none`, any attestation other than self attestation (zero AAGUID,
    /// `packed`, no `x5c`) is replaced by `none` with an empty statement.
    static func conveyed(_ object: AttestationObject, _ preference: AttestationConveyancePreference?)
        -> AttestationObject
    {
        guard (preference ?? AttestationConveyancePreference.none) == AttestationConveyancePreference.none,
            object.format != AttestationFormat.none
        else {
            return object
        }
        let isSelfAttestation =
            object.format == .packed && object.authenticatorData.attestedCredentialData?.aaguid == .zero
            && object.statement.mapValue?[.text("x5c")] == nil
        guard !isSelfAttestation else {
            return object
        }
        return AttestationObject(format: .none, statement: .map([:]), authenticatorData: object.authenticatorData)
    }

    /// `credProps` (WebAuthn L3 §10.1.3), `prf` (§10.1.4: `enabled` from hmac-secret's output,
    /// `results` from hmac-secret-mc's when `eval` was given) and `credBlob` (CTAP 2.1 §12.2:
    /// whether the authenticator kept it).
    static func creationExtensionResults(
        _ inputs: AuthenticationExtensionsClientInputsJSON?, _ ctap: CTAPExtensionInputs,
        _ response: MakeCredentialResponse, prfSecret: PINUVAuthSharedSecret?
    ) throws(WebAuthnClientError) -> AuthenticationExtensionsClientOutputsJSON {
        var outputs = AuthenticationExtensionsClientOutputsJSON()
        if inputs?.credProps == true {
            outputs.credProps = CredentialPropertiesOutput(rk: response.residentKey)
        }
        let extensions = response.attestationObject.authenticatorData.extensions?.mapValue
        if inputs?.prf != nil {
            outputs.prf = AuthenticationExtensionsPRFOutputsJSON(
                enabled: extensions?[.text("hmac-secret")]?.boolValue == true)
            if let prfSecret, let output = extensions?[.text("hmac-secret-mc")]?.bytesValue {
                outputs.prf?.results = try PRFEvaluation.results(output, sharedSecret: prfSecret)
            }
        }
        if ctap.credBlob != nil {
            outputs.otherExtensions["credBlob"] = .bool(extensions?[.text("credBlob")]?.boolValue == true)
        }
        return outputs
    }
}
