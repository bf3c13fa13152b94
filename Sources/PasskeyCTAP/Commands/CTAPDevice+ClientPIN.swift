import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorClientPIN` (CTAP 2.1 §6.5.5) with PIN/UV auth protocols one and two.
    ///
    /// | sub | name | answers |
    /// |---|---|---|
    /// | 0x01 | getPINRetries (§6.5.5.2) | `pinRetries`, `powerCycleState` |
    /// | 0x02 | getKeyAgreement (§6.5.5.4) | `keyAgreement`: the key hmac-secret also uses |
    /// | 0x03 | setPIN (§6.5.5.5) | nothing |
    /// | 0x04 | changePIN (§6.5.5.6) | nothing |
    /// | 0x05 | getPinToken (§6.5.5.7.1, legacy) | `pinUvAuthToken` with `mc` and `ga` |
    /// | 0x06 | getPinUvAuthTokenUsingUvWithPermissions (§6.5.5.7.3), with built-in UV | `pinUvAuthToken` |
    /// | 0x07 | getUVRetries (§6.5.5.3), with built-in UV | `uvRetries` |
    /// | 0x09 | getPinUvAuthTokenUsingPinWithPermissions (§6.5.5.7.2) | `pinUvAuthToken` |
    ///
    /// Without built-in user verification (``CTAPDevice/userVerification`` `nil`: the PIN is how a
    /// user proves themselves to the device), 0x06 and 0x07 are `CTAP2_ERR_INVALID_SUBCOMMAND`.
    ///
    /// ```
    /// request  = { ? 0x01 pinUvAuthProtocol: uint, 0x02 subCommand: uint, ? 0x03 keyAgreement: COSE_Key,
    ///              ? 0x04 pinUvAuthParam: bytes, ? 0x05 newPinEnc: bytes, ? 0x06 pinHashEnc: bytes,
    ///              ? 0x09 permissions: uint, ? 0x0A rpId: text }
    /// response = { ? 0x01 keyAgreement: COSE_Key, ? 0x02 pinUvAuthToken: bytes,
    ///              ? 0x03 pinRetries: uint, ? 0x04 powerCycleState: bool, ? 0x05 uvRetries: uint }
    /// newPinEnc  = encrypt(secret, paddedPin)       ; paddedPin: UTF-8 PIN, 0x00-padded to 64 bytes
    /// pinHashEnc = encrypt(secret, LEFT(SHA-256(PIN), 16))
    /// ```
    func clientPIN(_ parameters: CTAPParameters, _ transaction: CTAPTransaction) async throws(CTAPError) -> CBOR? {
        let subcommand = try parameters.required(2, "subCommand").ctapInt("subCommand")
        let pinUVAuthProtocol = try parameters[1].map { (item) throws(CTAPError) in try Self.pinUVAuthProtocol(item) }
        switch subcommand {
        case 0x01:
            let state = try await deviceState()
            return [
                3: CBOR(state.pinRetries),
                4: .bool(pin.consecutiveMismatches >= PINSession.mismatchesBeforePowerCycle),
            ]
        case 0x02:
            let pinUVAuthProtocol = try Self.requireProtocol(pinUVAuthProtocol)
            let key = try await authenticating { () async throws(AuthenticatorError) in
                try await authenticator.keyAgreement(pinUVAuthProtocol)
            }
            return [1: key.cbor]
        case 0x03 where supportsClientPIN:
            try await setPIN(parameters, Self.requireProtocol(pinUVAuthProtocol))
            return nil
        case 0x04 where supportsClientPIN:
            try await changePIN(parameters, Self.requireProtocol(pinUVAuthProtocol))
            return nil
        case 0x05 where supportsClientPIN:
            if parameters[9] != nil || parameters[10] != nil {
                throw CTAPError(.invalidParameter, "getPinToken takes no permissions and no rpId")
            }
            return try await pinToken(
                parameters, Self.requireProtocol(pinUVAuthProtocol), [.makeCredential, .getAssertion], rpID: nil)
        case 0x06 where builtInUserVerification != nil:
            let pinUVAuthProtocol = try Self.requireProtocol(pinUVAuthProtocol)
            let keyAgreement = try parameters.required(3, "keyAgreement")
            let (permissions, rpID) = try requestedPermissions(parameters)
            return try await uvToken(keyAgreement, pinUVAuthProtocol, permissions, rpID: rpID, transaction)
        case 0x07 where builtInUserVerification != nil:
            return try await uvRetries()
        case 0x09 where supportsClientPIN:
            let pinUVAuthProtocol = try Self.requireProtocol(pinUVAuthProtocol)
            let (permissions, rpID) = try requestedPermissions(parameters)
            return try await pinToken(parameters, pinUVAuthProtocol, permissions, rpID: rpID)
        default:
            throw CTAPError(.invalidSubcommand, "clientPIN subcommand \(subcommand) is not supported")
        }
    }

    /// Whether the device offers a PIN: the authenticator's user verification is what a verified
    /// PIN stands for, so an authenticator without it has no PIN (only getKeyAgreement and
    /// getPINRetries answer).
    var supportsClientPIN: Bool { authenticator.info.supportsUserVerification }

    /// The permissions a platform may ask a token for here: no bio enrollment (no sensor), large
    /// blobs only where the authenticator keeps them.
    var supportedPermissions: CTAPPermissions {
        var permissions: CTAPPermissions = [
            .makeCredential, .getAssertion, .credentialManagement, .authenticatorConfig,
        ]
        if authenticator.info.maxSerializedLargeBlobArray != nil {
            permissions.insert(.largeBlobWrite)
        }
        return permissions
    }

    /// `setPIN` (§6.5.5.5): the first PIN, sent encrypted and authenticated with the secret.
    private func setPIN(_ parameters: CTAPParameters, _ pinUVAuthProtocol: PINUVAuthProtocol) async throws(CTAPError) {
        let keyAgreement = try parameters.required(3, "keyAgreement")
        let param = try parameters.required(4, "pinUvAuthParam").ctapBytes("pinUvAuthParam")
        let newPinEnc = try parameters.required(5, "newPinEnc").ctapBytes("newPinEnc")
        let state = try await deviceState()
        guard state.pinHash == nil else {
            throw CTAPError(.pinAuthInvalid, "a PIN is set already: change it with changePIN")
        }
        let secret = try await sharedSecret(keyAgreement, pinUVAuthProtocol)
        guard secret.verify(param, for: newPinEnc) else {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthParam of setPIN does not verify")
        }
        let (hash, codePoints) = try Self.newPIN(newPinEnc, secret, minLength: state.minPINLength)
        try await updateDeviceState { state in
            state.pinHash = hash
            state.pinCodePoints = codePoints
            state.pinRetries = CTAPDeviceState.maxPINRetries
        }
    }

    /// `changePIN` (§6.5.5.6): the current PIN proves the user, then the new one replaces it and
    /// every token stops working.
    private func changePIN(_ parameters: CTAPParameters, _ pinUVAuthProtocol: PINUVAuthProtocol) async throws(CTAPError)
    {
        let keyAgreement = try parameters.required(3, "keyAgreement")
        let param = try parameters.required(4, "pinUvAuthParam").ctapBytes("pinUvAuthParam")
        let newPinEnc = try parameters.required(5, "newPinEnc").ctapBytes("newPinEnc")
        let pinHashEnc = try parameters.required(6, "pinHashEnc").ctapBytes("pinHashEnc")
        let state = try await checkPINUsable()
        let secret = try await sharedSecret(keyAgreement, pinUVAuthProtocol)
        guard secret.verify(param, for: newPinEnc + pinHashEnc) else {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthParam of changePIN does not verify")
        }
        try await verifyPIN(pinHashEnc, secret)
        let (hash, codePoints) = try Self.newPIN(newPinEnc, secret, minLength: state.minPINLength)
        if state.forcePINChange, let old = state.pinHash, constantTimeEquals(old, hash) {
            throw CTAPError(.pinPolicyViolation, "the PIN must change to another")
        }
        pin.token = nil
        try await updateDeviceState { state in
            state.pinHash = hash
            state.pinCodePoints = codePoints
            state.forcePINChange = false
        }
    }

    /// getPinToken and getPinUvAuthTokenUsingPinWithPermissions (§6.5.5.7.1, §6.5.5.7.2): the
    /// PIN proves the user, and a fresh token, encrypted with the secret, comes back.
    private func pinToken(
        _ parameters: CTAPParameters, _ pinUVAuthProtocol: PINUVAuthProtocol, _ permissions: CTAPPermissions,
        rpID: String?
    ) async throws(CTAPError) -> CBOR {
        let keyAgreement = try parameters.required(3, "keyAgreement")
        let pinHashEnc = try parameters.required(6, "pinHashEnc").ctapBytes("pinHashEnc")
        let state = try await checkPINUsable()
        let secret = try await sharedSecret(keyAgreement, pinUVAuthProtocol)
        try await verifyPIN(pinHashEnc, secret)
        if state.forcePINChange {
            throw CTAPError(.pinInvalid, "the PIN must be changed before it gives a token")
        }
        var token = issuePinUvAuthToken(permissions, rpID: rpID).withUnsafeBytes { Array($0) }
        defer { secureZero(&token) }
        return try await authenticating { () throws(AuthenticatorError) in [2: .bytes(try secret.encrypt(token))] }
    }

    /// The `permissions` and `rpId` of getPinUvAuthTokenUsingPinWithPermissions and
    /// getPinUvAuthTokenUsingUvWithPermissions, checked in the order of §6.5.5.7.2 and §6.5.5.7.3
    /// steps 1–4 (a UV token may carry `acfg`: getInfo says `uvAcfg`).
    private func requestedPermissions(_ parameters: CTAPParameters) throws(CTAPError) -> (CTAPPermissions, String?) {
        let bits = try parameters.required(9, "permissions").ctapInt("permissions")
        let rpID = try parameters[10]?.ctapText("rpId")
        guard let byte = UInt8(exactly: bits), byte != 0 else {
            throw CTAPError(.invalidParameter, "permissions is a non-zero byte, not \(bits)")
        }
        let permissions = CTAPPermissions(rawValue: byte)
        if rpID == nil, !permissions.isDisjoint(with: [.makeCredential, .getAssertion]) {
            throw CTAPError(.missingParameter, "the mc and ga permissions need an rpId")
        }
        guard supportedPermissions.isSuperset(of: permissions) else {
            throw CTAPError(.unauthorizedPermission, "permissions 0x\(String(byte, radix: 16)) are not all offered")
        }
        return (permissions, rpID)
    }

    /// The state, when a PIN is set and not blocked (§6.5.5.6 steps 3–4, §6.5.5.7.2 steps 5–6).
    private func checkPINUsable() async throws(CTAPError) -> CTAPDeviceState {
        let state = try await deviceState()
        guard state.pinHash != nil else {
            throw CTAPError(.pinNotSet, "no PIN is set")
        }
        guard state.pinRetries > 0 else {
            throw CTAPError(.pinBlocked, "the PIN is blocked: only authenticatorReset helps")
        }
        return state
    }

    /// Checks `pinHashEnc` against the PIN (§6.5.5.7.2 steps 7–9): a retry is spent (and
    /// written) before the comparison and given back when it matches; a mismatch regenerates the
    /// key-agreement key, so the platform must agree on a new secret; three mismatches in a row
    /// block PIN entry until a power cycle, the last retry blocks it for good. A correct PIN also
    /// unblocks built-in user verification: its UV retries are full again.
    ///
    /// - Throws: `CTAP2_ERR_PIN_AUTH_BLOCKED`, `CTAP2_ERR_PIN_BLOCKED`, `CTAP2_ERR_PIN_INVALID`.
    private func verifyPIN(_ pinHashEnc: [UInt8], _ secret: PINUVAuthSharedSecret) async throws(CTAPError) {
        guard pin.consecutiveMismatches < PINSession.mismatchesBeforePowerCycle else {
            throw CTAPError(.pinAuthBlocked, "three wrong PINs in a row: power the device off and on")
        }
        guard pinHashEnc.count == (secret.pinUVAuthProtocol == .one ? 16 : 32) else {
            throw CTAPError(.invalidParameter, "pinHashEnc is not one encrypted block")
        }
        try await updateDeviceState { $0.pinRetries -= 1 }
        let state = try await deviceState()
        let pinHash = try await authenticating { () throws(AuthenticatorError) in try secret.decrypt(pinHashEnc) }
        guard let expected = state.pinHash, constantTimeEquals(expected, pinHash) else {
            pin.consecutiveMismatches += 1
            try await authenticating(authenticator.regenerateKeyAgreement)
            if state.pinRetries == 0 {
                throw CTAPError(.pinBlocked, "the last PIN retry was spent")
            }
            if pin.consecutiveMismatches >= PINSession.mismatchesBeforePowerCycle {
                throw CTAPError(.pinAuthBlocked, "three wrong PINs in a row: power the device off and on")
            }
            throw CTAPError(.pinInvalid, "the PIN is wrong")
        }
        pin.consecutiveMismatches = 0
        try await updateDeviceState { state in
            state.pinRetries = CTAPDeviceState.maxPINRetries
            state.uvRetries = CTAPDeviceState.maxUVRetries
        }
    }

    /// The authenticator's side of the key agreement with the platform's `keyAgreement`.
    func sharedSecret(_ keyAgreement: CBOR, _ pinUVAuthProtocol: PINUVAuthProtocol) async throws(CTAPError)
        -> PINUVAuthSharedSecret
    {
        let platformKey: COSEKey
        do {
            platformKey = try COSEKey(cbor: keyAgreement)
        } catch {
            throw CTAPError(.invalidParameter, "keyAgreement is not a COSE key: \(error.reason)")
        }
        return try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.sharedSecret(with: platformKey, pinUVAuthProtocol)
        }
    }

    /// The hash and length of the PIN in `newPinEnc` (§6.5.5.5 steps 6–8): 64 padded bytes,
    /// a UTF-8 PIN of at most 63 bytes and at least `minLength` code points.
    ///
    /// - Throws: `CTAP1_ERR_INVALID_PARAMETER` when it is not 64 bytes encrypted,
    ///   `CTAP2_ERR_PIN_POLICY_VIOLATION` when the PIN is too short, too long or not UTF-8.
    static func newPIN(_ newPinEnc: [UInt8], _ secret: PINUVAuthSharedSecret, minLength: Int) throws(CTAPError) -> (
        hash: [UInt8], codePoints: Int
    ) {
        let expected = secret.pinUVAuthProtocol == .one ? 64 : 80
        guard newPinEnc.count == expected else {
            throw CTAPError(.invalidParameter, "newPinEnc is \(newPinEnc.count) bytes, not \(expected)")
        }
        var padded: [UInt8]
        do {
            padded = try secret.decrypt(newPinEnc)
        } catch {
            throw CTAPError(.invalidParameter, "newPinEnc does not decrypt")
        }
        defer { secureZero(&padded) }
        guard padded.last == 0 else {
            throw CTAPError(.pinPolicyViolation, "a PIN is at most 63 bytes")
        }
        var pinBytes = Array(padded.prefix { $0 != 0 })
        defer { secureZero(&pinBytes) }
        guard padded.dropFirst(pinBytes.count).allSatisfy({ $0 == 0 }) else {
            throw CTAPError(.pinPolicyViolation, "a PIN holds no 0x00 byte")
        }
        guard let text = String(validating: pinBytes, as: UTF8.self) else {
            throw CTAPError(.pinPolicyViolation, "a PIN is UTF-8")
        }
        let codePoints = text.unicodeScalars.count
        guard codePoints >= minLength else {
            throw CTAPError(.pinPolicyViolation, "a PIN is at least \(minLength) code points")
        }
        return (Array(SHA256Digest.hash(pinBytes).prefix(16)), codePoints)
    }

    /// The protocol, which every subcommand but getPINRetries needs.
    private static func requireProtocol(_ pinUVAuthProtocol: PINUVAuthProtocol?) throws(CTAPError)
        -> PINUVAuthProtocol
    {
        guard let pinUVAuthProtocol else {
            throw CTAPError(.missingParameter, "pinUvAuthProtocol (0x1) is missing")
        }
        return pinUVAuthProtocol
    }
}
