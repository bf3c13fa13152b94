import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// `authenticatorConfig` (CTAP 2.1 §6.11): once a PIN is set, built-in user verification is
    /// there or alwaysUv is on, only a pinUvAuthToken with the `acfg` permission may change the
    /// device's configuration.
    ///
    /// | sub | name | does |
    /// |---|---|---|
    /// | 0x02 | toggleAlwaysUv (§6.11.2) | every makeCredential and getAssertion then needs the PIN |
    /// | 0x03 | setMinPINLength (§6.11.4) | raises the minimum PIN length; may force a PIN change |
    ///
    /// enableEnterpriseAttestation (0x01) and vendorPrototype (0xFF) are
    /// `CTAP2_ERR_INVALID_SUBCOMMAND`: getInfo claims no `ep`, and no vendor commands exist.
    ///
    /// ```
    /// request = { 0x01 subCommand: uint, ? 0x02 subCommandParams: map,
    ///             ? 0x03 pinUvAuthProtocol: uint, ? 0x04 pinUvAuthParam: bytes }
    /// pinUvAuthParam = authenticate(token, 32×0xff ‖ 0x0d ‖ uint8(subCommand) ‖ subCommandParams)
    /// setMinPINLength params = { ? 0x01 newMinPINLength: uint, ? 0x02 minPinLengthRPIDs: [text],
    ///                            ? 0x03 forceChangePin: bool }
    /// ```
    func config(_ parameters: CTAPParameters) async throws(CTAPError) {
        guard supportsClientPIN else {
            throw CTAPError(.invalidCommand, "authenticatorConfig needs a device with a PIN")
        }
        let subcommand = try parameters.required(1, "subCommand").ctapInt("subCommand")
        let subcommandParameters = try parameters[2].map { (item) throws(CTAPError) in
            _ = try item.ctapMap("subCommandParams")
            return item
        }
        guard let byte = UInt8(exactly: subcommand), [0x02, 0x03].contains(byte) else {
            throw CTAPError(.invalidSubcommand, "authenticatorConfig subcommand \(subcommand) is not supported")
        }
        let state = try await deviceState()
        if isProtected(state) || state.alwaysUv {
            let message =
                [UInt8](repeating: 0xFF, count: 32) + [CTAPCommand.config.rawValue, byte]
                + (subcommandParameters?.encoded() ?? [])
            try authorize(
                .authenticatorConfig, rpID: nil, message: message, parameters: parameters, paramKey: 4, protocolKey: 3)
        }
        if byte == 0x02 {
            try await updateDeviceState { $0.alwaysUv.toggle() }
        } else {
            try await setMinPINLength(subcommandParameters, state)
        }
    }

    /// setMinPINLength (§6.11.4): the minimum only rises; a PIN now too short, or
    /// `forceChangePin`, must be changed before it gives a token again.
    private func setMinPINLength(_ parameters: CBOR?, _ state: CTAPDeviceState) async throws(CTAPError) {
        let newMinimum = try parameters?[1]?.ctapInt("newMinPINLength") ?? state.minPINLength
        let rpIDs = try parameters?[2]?.ctapArray("minPinLengthRPIDs") ?? []
        let forceChange = try parameters?[3]?.ctapBool("forceChangePin") ?? false
        guard (state.minPINLength...63).contains(newMinimum) else {
            throw CTAPError(.pinPolicyViolation, "the minimum PIN length rises, from \(state.minPINLength) to 63")
        }
        guard rpIDs.count <= Self.maxRPIDsForSetMinPINLength else {
            throw CTAPError(.keyStoreFull, "this device keeps no RP IDs for the minPinLength extension")
        }
        if forceChange, state.pinHash == nil {
            throw CTAPError(.pinNotSet, "forceChangePin needs a PIN")
        }
        try await updateDeviceState { state in
            state.minPINLength = newMinimum
            if forceChange || (state.pinHash != nil && state.pinCodePoints < newMinimum) {
                state.forcePINChange = true
            }
        }
    }
}
