import PasskeyAuthenticator
import PasskeyCTAP
import Testing
import WebAuthn

/// authenticatorConfig (CTAP 2.1 §6.11): toggleAlwaysUv and setMinPINLength, authorized by a
/// token with the `acfg` permission once a PIN is set.
@Suite struct ConfigTests {
    let fixture = CommandsFixture()

    /// Sends a config subcommand, authorized by `token` when given.
    func config(_ subcommand: Int, _ parameters: CBOR? = nil, token: PINClient.Token? = nil) async throws -> CTAPStatus
    {
        var request: [CBOR: CBOR] = [1: CBOR(subcommand)]
        if let parameters {
            request[2] = parameters
        }
        let message = [UInt8](repeating: 0xFF, count: 32) + [0x0D, UInt8(subcommand)] + (parameters?.encoded() ?? [])
        token?.authorize(&request, message, paramKey: 4, protocolKey: 3)
        return try await fixture.send(.config, .map(request)).status
    }

    func options() async throws -> CBOR? {
        try await fixture.send(.getInfo).response?[4]
    }

    @Test func withoutAPINAnyoneTurnsOnAlwaysUvWhichThenAsksForAPIN() async throws {
        #expect(try await config(0x02) == .ok)
        #expect(try await options()?["alwaysUv"] == true)
        #expect(try await options()?["makeCredUvNotRqd"] == false)
        let request = CommandsFixture.makeCredential(
            clientDataHash: [UInt8](repeating: 1, count: 32), residentKey: false)
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinNotSet)
        // alwaysUv protects the configuration itself: turning it off takes a PIN and a token.
        #expect(try await config(0x02) == .pinUVAuthTokenRequired)
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await config(0x02, token: try await client.token("1234", [.authenticatorConfig])) == .ok)
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .ok)
    }

    @Test(arguments: PINUVAuthProtocol.allCases)
    func withAPINOnlyAnACFGTokenConfigures(pinUVAuthProtocol: PINUVAuthProtocol) async throws {
        let client = PINClient(device: fixture.device, pinUVAuthProtocol)
        #expect(try await client.setPIN("1234") == .ok)
        #expect(try await config(0x02) == .pinUVAuthTokenRequired)
        let wrong = try await client.token("1234", [.credentialManagement])
        #expect(try await config(0x02, token: wrong) == .pinAuthInvalid)
        let token = try await client.token("1234", [.authenticatorConfig])
        #expect(try await config(0x03, [1: 6], token: token) == .ok)
        #expect(try await fixture.send(.getInfo).response?[13] == 6)
        #expect(try await config(0x02, token: token) == .ok)
        #expect(try await options()?["alwaysUv"] == true)
        // With alwaysUv, a non-discoverable credential needs the PIN too.
        let request = CommandsFixture.makeCredential(
            clientDataHash: [UInt8](repeating: 1, count: 32), residentKey: false)
        #expect(try await fixture.send(.makeCredential, .map(request)).status == .pinUVAuthTokenRequired)
    }

    @Test func aMinimumAboveThePINForcesAChangeToALongerPIN() async throws {
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        let token = try await client.token("1234", [.authenticatorConfig])
        #expect(try await config(0x03, [1: 3], token: token) == .pinPolicyViolation)
        #expect(try await config(0x03, [1: 64], token: token) == .pinPolicyViolation)
        #expect(try await config(0x03, [1: 6], token: token) == .ok)
        #expect(try await fixture.send(.getInfo).response?[12] == true)
        #expect(try await client.requestToken("1234", [.getAssertion], rpID: "x").status == .pinInvalid)
        #expect(try await client.changePIN(from: "1234", to: "12345") == .pinPolicyViolation)
        #expect(try await client.changePIN(from: "1234", to: "123456") == .ok)
        #expect(try await fixture.send(.getInfo).response?[12] == false)
        _ = try await client.token("123456", [.getAssertion], rpID: "x")
    }

    @Test func forceChangePinNeedsAPINAndANewOne() async throws {
        #expect(try await config(0x03, [3: true]) == .pinNotSet)
        let client = PINClient(device: fixture.device)
        #expect(try await client.setPIN("1234") == .ok)
        let token = try await client.token("1234", [.authenticatorConfig])
        #expect(try await config(0x03, [3: true], token: token) == .ok)
        #expect(try await client.changePIN(from: "1234", to: "1234") == .pinPolicyViolation)
        #expect(try await client.changePIN(from: "1234", to: "4321") == .ok)
    }

    @Test func unsupportedSubcommandsAndRPIDsAreRefused() async throws {
        #expect(try await config(0x01) == .invalidSubcommand)
        #expect(try await config(0xFF) == .invalidSubcommand)
        #expect(try await config(0x03, [2: ["example.org"]]) == .keyStoreFull)
        #expect(try await fixture.send(.config, [2: [:]]).status == .missingParameter)
        #expect(try await fixture.send(.config, [1: 2, 2: 1]).status == .cborUnexpectedType)
    }

    @Test func resetClearsTheConfiguration() async throws {
        #expect(try await config(0x03, [1: 8]) == .ok)
        #expect(try await config(0x02) == .ok)
        #expect(try await fixture.send(.reset).status == .ok)
        #expect(try await options()?["alwaysUv"] == false)
        #expect(try await fixture.send(.getInfo).response?[13] == 4)
    }
}
