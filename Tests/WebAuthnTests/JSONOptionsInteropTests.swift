import TestSupport
import Testing
import WebAuthn

/// Options JSON written by the real py_webauthn (`Vectors/pywebauthn-options`) decodes, and
/// re-encodes to the same JSON value.
@Suite struct JSONOptionsInteropTests {
    @Test(arguments: try Vectors.names("pywebauthn-options"))
    func roundTrips(name: String) throws {
        let bytes = try Vectors.bytes("pywebauthn-options", name)
        let original = try WebAuthnJSON.decode(JSONValue.self, from: bytes)
        let reencoded: JSONValue
        if name.hasPrefix("registration-") {
            reencoded = try Vectors.jsonValue(
                WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: bytes))
        } else {
            #expect(name.hasPrefix("authentication-"))
            reencoded = try Vectors.jsonValue(
                WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: bytes))
        }
        #expect(reencoded == original)
    }

    @Test func registrationFullFields() throws {
        let options = try Self.options(PublicKeyCredentialCreationOptionsJSON.self, "registration-full.json")
        #expect(options.rp == PublicKeyCredentialRpEntity(name: "Example Corp", id: "example.org"))
        #expect(options.user.id.bytes == Array("user-0001-".utf8) + [0xFF, 0xFE])
        #expect(options.user.name == "alice@example.org")
        #expect(options.user.displayName == "Alice Liddell")
        #expect(options.challenge.bytes == Array(0..<32))
        #expect(options.pubKeyCredParams == [.init(alg: -7), .init(alg: -8)])
        #expect(options.timeout == 120_000)
        let excluded = try #require(options.excludeCredentials)
        #expect(excluded.count == 2)
        #expect(excluded[0].type == .publicKey)
        #expect(excluded[0].id.string == "-R85HbTJsv3g6nAYnLo_tj9Xm6YSKzOtlP8-wzAIS-Q")
        #expect(excluded[0].transports == [.internal, .hybrid])
        #expect(excluded[1].id.bytes == Array(repeating: 0, count: 15) + [1])
        #expect(excluded[1].transports == nil)
        #expect(
            options.authenticatorSelection
                == AuthenticatorSelectionCriteria(
                    authenticatorAttachment: .platform, residentKey: .required, requireResidentKey: true,
                    userVerification: .required))
        #expect(options.attestation == .direct)
        #expect(options.hints == [.clientDevice, .hybrid])
        #expect(options.attestationFormats == nil)
        #expect(options.extensions == nil)
    }

    @Test func registrationSecurityKeyFields() throws {
        let options = try Self.options(PublicKeyCredentialCreationOptionsJSON.self, "registration-security-key.json")
        #expect(options.pubKeyCredParams == [.init(alg: -257)])
        #expect(options.excludeCredentials?.first?.transports == [.usb, .nfc, .ble])
        #expect(options.authenticatorSelection?.authenticatorAttachment == .crossPlatform)
        #expect(options.authenticatorSelection?.residentKey == .discouraged)
        #expect(options.authenticatorSelection?.userVerification == .discouraged)
        #expect(options.attestation == .enterprise)
        #expect(options.hints == [.securityKey])
    }

    @Test func authenticationAllowCredentialsFields() throws {
        let options = try Self.options(
            PublicKeyCredentialRequestOptionsJSON.self, "authentication-allow-credentials.json")
        #expect(options.challenge.bytes == Array(0..<32))
        #expect(options.timeout == 90_000)
        #expect(options.rpId == "example.org")
        #expect(options.userVerification == .required)
        #expect(options.allowCredentials?.map(\.transports) == [[.internal, .smartCard], [.usb]])
        #expect(options.hints == nil)
        #expect(options.extensions == nil)
    }

    @Test func authenticationMinimalKeepsEmptyAllowList() throws {
        let options = try Self.options(PublicKeyCredentialRequestOptionsJSON.self, "authentication-minimal.json")
        #expect(options.allowCredentials == [])
        #expect(options.userVerification == .preferred)
    }

    /// The options of one py_webauthn vector, read as `type`.
    private static func options<Options: Decodable>(_ type: Options.Type, _ name: String) throws -> Options {
        try WebAuthnJSON.decode(type, from: Vectors.bytes("pywebauthn-options", name))
    }
}
