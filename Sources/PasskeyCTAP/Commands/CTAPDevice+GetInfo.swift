import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// The extensions this command layer carries between the wire and the authenticator; getInfo
    /// lists those the authenticator also implements, and no other.
    static let carriedExtensions = ["hmac-secret", "credProtect", "credBlob"]

    /// The longest `message` the device takes (§6.4 `maxMsgSize`): CTAPHID's 7609-byte message
    /// less the command byte (§11.2.4).
    static let maxMessageSize = 7608

    /// `authenticatorGetInfo` (CTAP 2.1 §6.4): what the authenticator is and supports, reported
    /// truthfully: `FIDO_2_0` until clientPIN makes it a 2.1 authenticator, `up` always, `rk` and
    /// `uv` as the authenticator has them, `plat` from its attachment.
    ///
    /// ```
    /// { 0x01 versions: [text], 0x02 extensions: [text], 0x03 aaguid: bytes(16),
    ///   0x04 options: {text => bool}, 0x05 maxMsgSize: uint, ? 0x06 pinUvAuthProtocols: [uint],
    ///   0x09 transports: [text],
    ///   0x0A algorithms: [{"alg": int, "type": "public-key"}], 0x0F maxCredBlobLength: uint }
    /// ```
    func getInfo() -> CBOR {
        let info = authenticator.info
        let extensions = Self.carriedExtensions.filter(info.extensions.contains)
        var options: [CBOR: CBOR] = [
            "rk": .bool(info.supportsResidentKeys), "up": true, "plat": .bool(info.attachment == .platform),
        ]
        if info.supportsUserVerification {
            options["uv"] = true
        }
        var response: [CBOR: CBOR] = [
            1: ["FIDO_2_0"], 3: .bytes(info.aaguid.bytes), 4: .map(options), 5: CBOR(Self.maxMessageSize),
            9: .array(transports.map { .text($0.rawValue) }),
            10: .array(info.algorithms.map { ["alg": CBOR($0.rawValue), "type": "public-key"] }),
        ]
        if !extensions.isEmpty {
            response[2] = .array(extensions.map(CBOR.text))
        }
        if extensions.contains("hmac-secret") {
            // The protocols hmac-secret's key agreement runs (§6.5.4); no PIN is set or settable.
            response[6] = [2, 1]
        }
        if extensions.contains("credBlob") {
            response[15] = CBOR(AuthenticatorProfile.maxCredBlobLength)
        }
        return .map(response)
    }
}
