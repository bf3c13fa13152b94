import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// The extensions this command layer carries between the wire and the authenticator; getInfo
    /// lists those the authenticator also implements, and no other.
    static let carriedExtensions = ["hmac-secret", "credProtect", "credBlob", "largeBlobKey"]

    /// The longest `message` the device takes (§6.4 `maxMsgSize`): CTAPHID's 7609-byte message
    /// less the command byte (§11.2.4).
    static let maxMessageSize = 7608

    /// The firmware version getInfo reports (§6.4 `firmwareVersion`): this command layer's
    /// revision, raised when what a client can observe changes.
    static let firmwareVersion = 2

    /// The RP IDs `setMinPINLength` may name for the minPinLength extension (§6.4
    /// `maxRPIDsForSetMinPINLength`): none, as the extension (§12.4) is not implemented.
    static let maxRPIDsForSetMinPINLength = 0

    /// `authenticatorGetInfo` (CTAP 2.1 §6.4): what the authenticator is and supports, reported
    /// truthfully: `up` always, `rk` as the authenticator has it, `plat` from its attachment;
    /// where the authenticator verifies users, a 2.1 PIN device (`clientPin` true once a PIN is
    /// set, `pinUvAuthToken`, `makeCredUvNotRqd`, `alwaysUv`, `setMinPINLength`, `authnrCfg`).
    /// `uv` and its members are there only with built-in user verification
    /// (``addUserVerificationInfo(to:)``); without it the PIN is how a user is verified.
    ///
    /// ```
    /// { 0x01 versions: [text], 0x02 extensions: [text], 0x03 aaguid: bytes(16),
    ///   0x04 options: {text => bool}, 0x05 maxMsgSize: uint, 0x06 pinUvAuthProtocols: [uint],
    ///   0x07 maxCredentialCountInList: uint, 0x08 maxCredentialIdLength: uint, 0x09 transports: [text],
    ///   0x0A algorithms: [{"alg": int, "type": "public-key"}], ? 0x0B maxSerializedLargeBlobArray: uint,
    ///   ? 0x0C forcePINChange: bool, ? 0x0D minPINLength: uint, 0x0E firmwareVersion: uint,
    ///   ? 0x0F maxCredBlobLength: uint, ? 0x10 maxRPIDsForSetMinPINLength: uint,
    ///   ? 0x11 preferredPlatformUvAttempts: uint, ? 0x12 uvModality: uint }
    /// ```
    func getInfo() async throws(CTAPError) -> CBOR {
        let info = authenticator.info
        let extensions = Self.carriedExtensions.filter(info.extensions.contains)
        let options: [CBOR: CBOR] = [
            "rk": .bool(info.supportsResidentKeys), "up": true, "plat": .bool(info.attachment == .platform),
        ]
        var response: [CBOR: CBOR] = [
            1: ["FIDO_2_0"], 3: .bytes(info.aaguid.bytes), 4: .map(options), 5: CBOR(Self.maxMessageSize),
            6: [2, 1], 9: .array(transports.map { .text($0.rawValue) }),
            10: .array(info.algorithms.map { ["alg": CBOR($0.rawValue), "type": "public-key"] }),
            14: CBOR(Self.firmwareVersion),
        ]
        if !extensions.isEmpty {
            response[2] = .array(extensions.map(CBOR.text))
        }
        if extensions.contains("credBlob") {
            response[15] = CBOR(AuthenticatorProfile.maxCredBlobLength)
        }
        // clientPIN (§6.5) and authenticatorConfig (§6.11): a CTAP 2.1 PIN device.
        if supportsClientPIN {
            let state = try await deviceState()
            response[1] = ["FIDO_2_0", "FIDO_2_1"]
            var options = options
            options["clientPin"] = .bool(state.pinHash != nil)
            options["pinUvAuthToken"] = true
            options["makeCredUvNotRqd"] = .bool(!state.alwaysUv)
            options["alwaysUv"] = .bool(state.alwaysUv)
            options["setMinPINLength"] = true
            options["authnrCfg"] = true
            response[4] = .map(options)
            response[12] = .bool(state.forcePINChange)
            response[13] = CBOR(state.minPINLength)
            response[16] = CBOR(Self.maxRPIDsForSetMinPINLength)
            addUserVerificationInfo(to: &response)
        }
        addStorageInfo(to: &response)
        // §6.4 versions: a device that also speaks U2F (CTAPHID_MSG) lists "U2F_V2", first as keys do.
        if speaksU2F {
            response[1] = .array(["U2F_V2"] + (response[1]?.arrayValue ?? []))
        }
        return .map(response)
    }

    /// The longest allow or exclude list getInfo announces (§6.4 `maxCredentialCountInList`):
    /// lists are bounded only by ``maxMessageSize``, and this many short IDs always fit.
    static let maxCredentialCountInList = 64

    /// getInfo's credential-management and large-blob members (§6.4): options `credMgmt` and
    /// `credentialMgmtPreview` (the prototype 0x41, for `FIDO_2_1_PRE` clients) with a
    /// credential store and a PIN to authorize it, option `largeBlobs` and `maxSerializedLargeBlobArray` (0x0B) when the
    /// authenticator keeps large blobs, and the list limits `maxCredentialCountInList` (0x07) and
    /// `maxCredentialIdLength` (0x08: any ID WebAuthn allows, 1023 bytes).
    private func addStorageInfo(to response: inout [CBOR: CBOR]) {
        var options = response[4]?.mapValue ?? [:]
        if managesCredentials {
            options["credMgmt"] = true
            options["credentialMgmtPreview"] = true
        }
        if let limit = authenticator.info.maxSerializedLargeBlobArray {
            options["largeBlobs"] = true
            response[11] = CBOR(limit)
        }
        response[4] = .map(options)
        response[7] = CBOR(Self.maxCredentialCountInList)
        response[8] = CBOR(AttestedCredentialData.maximumCredentialIDLength)
    }
}
