import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// A platform's side of authenticatorClientPIN (CTAP 2.1 §6.5.5), for tests of any command a
/// pinUvAuthToken authorizes: the key agreement through getKeyAgreement and the core's
/// ``PINUVAuthProtocol/encapsulate(peer:)``, PINs padded and encrypted as a client sends them,
/// tokens decrypted, and pinUvAuthParams computed with HMAC-SHA-256 here rather than by the code
/// under test.
///
/// ```swift
/// let client = PINClient(device: fixture.device, .two)
/// #expect(try await client.setPIN("1234") == .ok)
/// let token = try await client.token("1234", [.makeCredential], rpID: "example.org")
/// request[8] = .bytes(token.authenticate(clientDataHash)); request[9] = 2
/// ```
struct PINClient {
    let device: CTAPDevice
    let pinUVAuthProtocol: PINUVAuthProtocol

    init(device: CTAPDevice, _ pinUVAuthProtocol: PINUVAuthProtocol = .two) {
        self.device = device
        self.pinUVAuthProtocol = pinUVAuthProtocol
    }

    /// A token as the platform holds it, with the protocol it authenticates under.
    struct Token {
        let bytes: [UInt8]
        let pinUVAuthProtocol: PINUVAuthProtocol

        /// `authenticate(pinUvAuthToken, message)` (§6.5.6, §6.5.7): HMAC-SHA-256, truncated to
        /// 16 bytes for protocol one.
        func authenticate(_ message: [UInt8]) -> [UInt8] {
            let code = HMACSHA256.authenticationCode(for: message, key: bytes)
            return pinUVAuthProtocol == .one ? Array(code.prefix(16)) : code
        }

        /// `pinUvAuthParam` and `pinUvAuthProtocol` of a command map, at the command's keys.
        func authorize(_ request: inout [CBOR: CBOR], _ message: [UInt8], paramKey: Int, protocolKey: Int) {
            request[CBOR(paramKey)] = .bytes(authenticate(message))
            request[CBOR(protocolKey)] = CBOR(pinUVAuthProtocol.rawValue)
        }
    }

    /// Sends one clientPIN subcommand with this client's protocol.
    func send(_ subcommand: Int, _ parameters: [CBOR: CBOR] = [:]) async throws -> (
        status: CTAPStatus, response: CBOR?
    ) {
        var request = parameters
        request[1] = request[1] ?? CBOR(pinUVAuthProtocol.rawValue)
        request[2] = CBOR(subcommand)
        let answer = await device.handle(
            [CTAPCommand.clientPIN.rawValue] + CBOR.map(request).encoded(), context: CTAPTransaction(channel: 1))
        let status = CTAPStatus(rawValue: try #require(answer.first))
        return (status, answer.count > 1 ? try CBOR(decoding: answer.dropFirst()) : nil)
    }

    /// getKeyAgreement, then encapsulate: the platform key to send and the shared secret.
    func keyAgreement() async throws -> (key: COSEKey, secret: PINUVAuthSharedSecret) {
        let (status, response) = try await send(0x02)
        try #require(status == .ok)
        let (key, secret) = try pinUVAuthProtocol.encapsulate(peer: COSEKey(cbor: try #require(response?[1])))
        return (key, secret)
    }

    /// The PIN as `paddedPin` carries it: UTF-8, then 0x00 up to 64 bytes.
    static func padded(_ pin: [UInt8]) -> [UInt8] {
        pin + [UInt8](repeating: 0, count: max(0, 64 - pin.count))
    }

    /// `LEFT(SHA-256(PIN), 16)`.
    static func hash(_ pin: String) -> [UInt8] {
        Array(SHA256Digest.hash(Array(pin.utf8)).prefix(16))
    }

    /// getPINRetries: the retries left and whether a power cycle is needed.
    func retries() async throws -> (retries: Int, powerCycle: Bool) {
        let (status, response) = try await send(0x01)
        try #require(status == .ok)
        return (try #require(response?[3]?.intValue), response?[4]?.boolValue ?? false)
    }

    /// setPIN with `paddedPin` as given (to test the policy with raw bytes).
    func setPIN(padded: [UInt8]) async throws -> CTAPStatus {
        let (key, secret) = try await keyAgreement()
        let newPinEnc = try secret.encrypt(padded)
        return try await send(
            0x03, [3: key.cbor, 4: .bytes(secret.authenticate(newPinEnc)), 5: .bytes(newPinEnc)]
        ).status
    }

    /// setPIN.
    func setPIN(_ pin: String) async throws -> CTAPStatus {
        try await setPIN(padded: Self.padded(Array(pin.utf8)))
    }

    /// changePIN from `old` to `new`.
    func changePIN(from old: String, to new: String) async throws -> CTAPStatus {
        let (key, secret) = try await keyAgreement()
        let newPinEnc = try secret.encrypt(Self.padded(Array(new.utf8)))
        let pinHashEnc = try secret.encrypt(Self.hash(old))
        return try await send(
            0x04,
            [
                3: key.cbor, 4: .bytes(secret.authenticate(newPinEnc + pinHashEnc)), 5: .bytes(newPinEnc),
                6: .bytes(pinHashEnc),
            ]
        ).status
    }

    /// getPinUvAuthTokenUsingPinWithPermissions (0x09), or the legacy getPinToken (0x05) when
    /// `permissions` is `nil`: the status and, on success, the token.
    func requestToken(_ pin: String, _ permissions: CTAPPermissions?, rpID: String? = nil) async throws -> (
        status: CTAPStatus, token: Token?
    ) {
        let (key, secret) = try await keyAgreement()
        var parameters: [CBOR: CBOR] = [3: key.cbor, 6: .bytes(try secret.encrypt(Self.hash(pin)))]
        if let permissions {
            parameters[9] = CBOR(Int(permissions.rawValue))
        }
        if let rpID {
            parameters[10] = .text(rpID)
        }
        let (status, response) = try await send(permissions == nil ? 0x05 : 0x09, parameters)
        guard status == .ok else {
            return (status, nil)
        }
        let encrypted = try #require(response?[2]?.bytesValue)
        return (status, Token(bytes: try secret.decrypt(encrypted), pinUVAuthProtocol: pinUVAuthProtocol))
    }

    /// getPinUvAuthTokenUsingUvWithPermissions (0x06, §6.5.5.7.3): the status and, on success,
    /// the token the device's built-in user verification gave.
    func requestUVToken(_ permissions: CTAPPermissions, rpID: String? = nil) async throws -> (
        status: CTAPStatus, token: Token?
    ) {
        let (key, secret) = try await keyAgreement()
        var parameters: [CBOR: CBOR] = [3: key.cbor, 9: CBOR(Int(permissions.rawValue))]
        if let rpID {
            parameters[10] = .text(rpID)
        }
        let (status, response) = try await send(0x06, parameters)
        guard status == .ok else {
            return (status, nil)
        }
        let encrypted = try #require(response?[2]?.bytesValue)
        return (status, Token(bytes: try secret.decrypt(encrypted), pinUVAuthProtocol: pinUVAuthProtocol))
    }

    /// getUVRetries (0x07, §6.5.5.3): the built-in UV attempts left.
    func uvRetries() async throws -> Int {
        let (status, response) = try await send(0x07)
        try #require(status == .ok)
        return try #require(response?[5]?.intValue)
    }

    /// A token with `permissions` (bound to `rpID` if given); the request must succeed.
    func token(_ pin: String, _ permissions: CTAPPermissions, rpID: String? = nil) async throws -> Token {
        let (status, token) = try await requestToken(pin, permissions, rpID: rpID)
        try #require(status == .ok)
        return try #require(token)
    }
}
