import Auth0Passkeys
import Foundation
import PasskeyControl
import TestSupport
import Testing
import WebAuthn

/// The W3C WebDriver virtual-authenticator commands (WebAuthn L3 §11) over HTTP, each checked by
/// what a relying party then verifies.
@Suite struct VirtualAuthenticatorCommandTests {
    static let ctap2 =
        #"{"protocol":"ctap2","transport":"usb","hasResidentKey":true,"hasUserVerification":true,"isUserVerified":true}"#

    @Test func aCredentialAddedWithItsKeySignsAndCountsOnFromItsSignCount() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, Self.ctap2)
            let key = try SigningKey.generate(.es256)
            let id = Base64URL.encode(SecureRandom.bytes(16))
            let handle = Base64URL.encode(Array("ada".utf8))
            let pkcs8 = Base64URL.encode(try key.exportedPKCS8())
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let added = try await client.send(
                .post, path + "/credential",
                #"{"credentialId":"\#(id)","isResidentCredential":true,"rpId":"example.com","privateKey":"\#(pkcs8)","userHandle":"\#(handle)","signCount":41,"userName":"ada"}"#
            )
            #expect(added.status == 200, "\(added.text)")

            let challenge = SecureRandom.bytes(32)
            let get = try await client.send(
                .post, path + "/get",
                #"{"origin":"https://example.com","options":\#(requestOptions(challenge: challenge))}"#)
            #expect(get.status == 200, "\(get.text)")
            let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: get.valueBytes)
            #expect(response.rawId.bytes == (try Base64URL.decode(id)))
            let verified = try RelyingParty(id: "example.com").verifyAuthentication(
                response, challenge: challenge,
                credential: CredentialRecord(
                    id: response.rawId.bytes, publicKey: try key.publicKey.bytes, signCount: 41,
                    userHandle: Array("ada".utf8)),
                userIdentified: .byResponse)
            #expect(verified.signCount == 42)

            let listed = try await client.send(.get, path + "/credentials")
            let credentials = try #require(listed.value?.arrayValue)
            #expect(credentials.count == 1)
            #expect(credentials.first?["signCount"]?.numberValue == 42)
            #expect(credentials.first?["privateKey"] == nil, "keys leave only through export")
            #expect(credentials.first?["userName"]?.stringValue == "ada")

            let exported = try await client.send(.post, path + "/credentials/\(id)/export")
            #expect(exported.value?["privateKey"]?.stringValue == pkcs8)
        }
    }

    @Test func aCreatedCredentialIsListedAndRemovedOneByOneOrAll() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, Self.ctap2)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            var ids: [String] = []
            for user in ["ada", "grace", "linus"] {
                let created = try await client.send(
                    .post, path + "/create",
                    #"{"origin":"https://example.com","options":\#(creationOptions(user: user))}"#)
                let response = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: created.valueBytes)
                _ = try RelyingParty(id: "example.com").verifyRegistration(response, challenge: challengeOf(response))
                ids.append(response.id)
            }
            #expect(try await count(client, path) == 3)
            #expect(try await client.send(.delete, path + "/credentials/\(ids[0])").status == 200)
            #expect(try await count(client, path) == 2)
            let again = try await client.send(.delete, path + "/credentials/\(ids[0])")
            #expect(again.status == 400 && again.error == "invalid argument")
            #expect(try await client.send(.delete, path + "/credentials").status == 200)
            #expect(try await count(client, path) == 0)
            #expect(try await client.send(.delete, path).status == 200)
            #expect(try await client.send(.get, path + "/credentials").error == "invalid argument")
        }
    }

    @Test func setUserVerifiedFalseFailsARequiredVerificationAndConsentFalseFailsEverything() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, Self.ctap2)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let required = creationOptions(userVerification: "required")
            #expect(
                try await client.send(
                    .post, path + "/create", #"{"origin":"https://example.com","options":\#(required)}"#
                ).status == 200)
            #expect(try await client.send(.post, path + "/uv", #"{"isUserVerified":false}"#).status == 200)
            let refused = try await client.send(
                .post, path + "/get",
                #"{"origin":"https://example.com","options":\#(requestOptions(challenge: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16], userVerification: "required"))}"#
            )
            #expect(refused.status == 400 && refused.error == "NotAllowedError", "\(refused.text)")

            let declining = try await client.addAuthenticator(
                session,
                #"{"protocol":"ctap2_1","transport":"internal","hasResidentKey":true,"isUserConsenting":false}"#)
            let declined = try await client.send(
                .post, "/session/\(session)/webauthn/authenticator/\(declining)/create",
                #"{"origin":"https://example.com","options":\#(creationOptions(userVerification: "discouraged"))}"#)
            #expect(declined.error == "NotAllowedError")
        }
    }

    @Test func credentialPropertiesShowInTheNextAssertionsFlagsAndCounter() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, Self.ctap2)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let created = try await client.send(
                .post, path + "/create", #"{"origin":"https://example.com","options":\#(creationOptions())}"#)
            let id = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: created.valueBytes).id
            let set = try await client.send(
                .post, path + "/credentials/\(id)/props",
                #"{"backupEligibility":true,"backupState":true,"signCount":100}"#)
            #expect(set.status == 200, "\(set.text)")
            let get = try await client.send(
                .post, path + "/get",
                #"{"origin":"https://example.com","options":\#(requestOptions(challenge: SecureRandom.bytes(16)))}"#)
            let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: get.valueBytes)
            let data = try AuthenticatorData(bytes: response.response.authenticatorData.bytes)
            #expect(data.flags.contains(.backupEligible) && data.flags.contains(.backupState))
            #expect(data.signCount == 101)
        }
    }

    @Test(arguments: [
        (#"{"transport":"usb"}"#, "invalid argument"),
        (#"{"protocol":"ctap2"}"#, "invalid argument"),
        (#"{"protocol":"ctap3","transport":"usb"}"#, "invalid argument"),
        (#"{"protocol":"ctap2","transport":"usb","hasResidentKey":"yes"}"#, "invalid argument"),
        (#"{"protocol":"ctap2","transport":"usb","colour":"red"}"#, "invalid argument"),
        (#"{"protocol":"ctap2","transport":"carrier-pigeon"}"#, "invalid argument"),
        (#"{"protocol":"ctap1/u2f","transport":"usb"}"#, "unsupported operation"),
        (#"{"protocol":"ctap2","transport":"usb","extensions":["uvm"]}"#, "unsupported operation"),
        (#"{"softpasskey:profile":"tpm"}"#, "invalid argument"),
        (#"[1, 2]"#, "invalid argument"),
    ])
    func aConfigurationOutsideTheValidValuesIsRefused(configuration: String, error: String) async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let answer = try await client.send(.post, "/session/\(session)/webauthn/authenticator", configuration)
            #expect(answer.status == 400)
            #expect(answer.error == error, "\(answer.text)")
        }
    }

    @Test func anAuthenticatorWithoutResidentKeysCannotMakeARequiredDiscoverableCredential() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(
                session, #"{"protocol":"ctap2","transport":"usb","hasResidentKey":false}"#)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let refused = try await client.send(
                .post, path + "/create",
                #"{"origin":"https://example.com","options":\#(creationOptions(userVerification: "discouraged"))}"#)
            #expect(refused.error == "NotSupportedError", "\(refused.text)")
            let created = try await client.send(
                .post, path + "/create",
                #"{"origin":"https://example.com","options":\#(creationOptions(residentKey: "discouraged", userVerification: "discouraged"))}"#
            )
            #expect(created.status == 200, "\(created.text)")
            let listed = try #require(try await client.send(.get, path + "/credentials").value?.arrayValue)
            #expect(listed.first?["isResidentCredential"]?.boolValue == false)
        }
    }

    @Test func theExtensionsConfiguredAreTheOnesTheAuthenticatorRuns() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let extensions = #"{"credBlob":"AQID","credentialProtectionPolicy":"userVerificationRequired"}"#
            for (configured, runs) in [(#"["credBlob","credProtect"]"#, true), ("[]", false)] {
                let authenticator = try await client.addAuthenticator(
                    session,
                    #"{"protocol":"ctap2","transport":"usb","hasResidentKey":true,"extensions":\#(configured)}"#)
                let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
                let created = try await client.send(
                    .post, path + "/create",
                    #"{"origin":"https://example.com","options":\#(creationOptions(extensions: extensions))}"#)
                #expect(created.status == 200, "\(created.text)")
                let response = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: created.valueBytes)
                let verified = try RelyingParty(id: "example.com").verifyRegistration(
                    response, challenge: challengeOf(response))
                let outputs = verified.authenticatorData.extensions?.mapValue
                #expect(outputs?[.text("credProtect")] == (runs ? CBOR(3) : nil))
                #expect(response.clientExtensionResults.otherExtensions["credBlob"] == .bool(runs))
            }
        }
    }

    @Test func aLargeBlobAddedWithACredentialIsListedAndReadByTheRelyingParty() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(
                session, #"{"protocol":"ctap2","transport":"usb","hasResidentKey":true,"extensions":["largeBlob"]}"#)
            let path = "/session/\(session)/webauthn/authenticator/\(authenticator)"
            let id = Base64URL.encode(SecureRandom.bytes(16))
            let pkcs8 = Base64URL.encode(try SigningKey.generate(.es256).exportedPKCS8())
            let blob = Base64URL.encode(Array("a certificate".utf8))
            let added = try await client.send(
                .post, path + "/credential",
                #"{"credentialId":"\#(id)","isResidentCredential":true,"rpId":"example.com","privateKey":"\#(pkcs8)","userHandle":"YWRh","signCount":0,"largeBlob":"\#(blob)"}"#
            )
            #expect(added.status == 200, "\(added.text)")
            let listed = try #require(try await client.send(.get, path + "/credentials").value?.arrayValue)
            #expect(listed.first?["largeBlob"]?.stringValue == blob)
            let options = requestOptions(challenge: SecureRandom.bytes(32), allow: [id])
                .replacingOccurrences(of: #""rpId""#, with: #""extensions":{"largeBlob":{"read":true}},"rpId""#)
            let get = try await client.send(
                .post, path + "/get", #"{"origin":"https://example.com","options":\#(options)}"#)
            let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: get.valueBytes)
            #expect(response.clientExtensionResults.otherExtensions["largeBlob"] == .object(["blob": .string(blob)]))

            let tooLarge = Base64URL.encode(SecureRandom.bytes(5000))
            let other = Base64URL.encode(SecureRandom.bytes(16))
            let refused = try await client.send(
                .post, path + "/credential",
                #"{"credentialId":"\#(other)","isResidentCredential":false,"rpId":"example.com","privateKey":"\#(pkcs8)","signCount":0,"largeBlob":"\#(tooLarge)"}"#
            )
            #expect(refused.status == 400 && refused.error == "invalid argument", "\(refused.text)")
            #expect(try await count(client, path) == 1, "the refused credential is not kept")
        }
    }

    private func count(_ client: ControlClient, _ path: String) async throws -> Int {
        try #require(try await client.send(.get, path + "/credentials").value?.arrayValue).count
    }
}

/// The challenge a registration's client data carries.
func challengeOf(_ response: RegistrationResponseJSON) throws -> [UInt8] {
    try Base64URL.decode(CollectedClientData(bytes: response.response.clientDataJSON.bytes).challenge)
}
