import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import PasskeyAuthenticator
import Testing
import WebAuthn

/// The Management API client and the client-credentials grant (auth0-passkey-api.md §15), byte
/// for byte: paths with the IDs percent-encoded, bodies in the spec's key names and encodings,
/// the error shape of §15.4, and the secret and the token never printed nor logged.
@Suite struct ManagementClientTests {
    static let secretText = "m2m-secret-Qz7Vd1XkP0aR4tYw"

    /// §15.1: a JSON body with the four members, and the answer read as API credentials.
    @Test func clientCredentialsRequestAndAnswer() async throws {
        let answer = ScriptedTransport(
            json: #"{"access_token":"eyJhbGciOiJSUzI1NiJ9.e30.sig","expires_in":86400,"#
                + #""scope":"create:users read:users","token_type":"Bearer"}"#)
        let token = try await answer.authentication()
            .clientCredentials(
                clientSecret: ClientSecret(Self.secretText), audience: "https://login.example.com/api/v2/"
            ).start()
        #expect(answer.requests.map(\.url) == ["https://login.example.com/oauth/token"])
        #expect(
            answer.body()
                == #"{"audience":"https://login.example.com/api/v2/","client_id":"\#(Fixtures.clientID)","#
                + #""client_secret":"\#(Self.secretText)","grant_type":"client_credentials"}"#)
        #expect(token.accessToken == "eyJhbGciOiJSUzI1NiJ9.e30.sig")
        #expect(token.scope == "create:users read:users")
        #expect(token.tokenType == "Bearer")
        #expect(token.expiresAt.timeIntervalSinceNow > 86_000)
    }

    /// STYLE §5: the secret prints as `<redacted>` and `dump` shows nothing of it; the client's
    /// description shows no token.
    @Test func theSecretAndTheTokenNeverPrint() throws {
        let secret = ClientSecret(Self.secretText)
        var dumped = ""
        dump(secret, to: &dumped)
        #expect("\(secret)" == "<redacted>" && String(reflecting: secret) == "<redacted>")
        #expect(!dumped.contains(Self.secretText))
        let management = try ManagementAPI(token: "AT-management-0123456789", baseURL: "https://login.example.com")
        var dumpedAPI = ""
        dump(management, to: &dumpedAPI)
        #expect("\(management)" == "ManagementAPI(url: https://login.example.com/api/v2, token: <redacted>)")
        #expect(!dumpedAPI.contains("AT-management"))
    }

    /// STYLE §5: at `.trace` the token request's `client_secret` is `<redacted>` in the JSON body,
    /// and the answer's `access_token` too; a form body (as other clients send it) is never
    /// logged, only its size.
    @Test func theTraceRedactsTheSecretInJSONAndNeverLogsAForm() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "management-test", factory: { _ in logs })
        logger.logLevel = .trace
        let answer = ScriptedTransport(
            json: #"{"access_token":"AT-from-the-grant-0123456789","expires_in":60,"token_type":"Bearer"}"#)
        _ = try await answer.authentication(logger: logger)
            .clientCredentials(clientSecret: ClientSecret(Self.secretText), audience: "https://x/api/v2/").start()
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains(#""client_secret":"<redacted>""#), "\(text)")
        #expect(text.contains(#""access_token":"<redacted>""#), "\(text)")
        #expect(!text.contains(Self.secretText) && !text.contains("AT-from-the-grant"))
        let form = Array(
            "grant_type=client_credentials&client_id=abc&client_secret=\(Self.secretText)&audience=x".utf8)
        let redactedForm = WireRedactor.redact(body: form)
        #expect(redactedForm == "<\(form.count) bytes, not JSON>")
    }

    /// §15.2: the user calls, their paths (`|`, `+` and `@` percent-encoded) and bodies.
    @Test func userCalls() async throws {
        let user =
            #"{"user_id":"auth0|65f0c2d1","email":"ada+x@example.com","email_verified":true,"name":"Ada","#
            + #""identities":[{"connection":"Username-Password-Authentication","user_id":"65f0c2d1","#
            + #""provider":"auth0","isSocial":false}],"created_at":"2025-05-15T13:29:32.321Z"}"#
        let answer = ScriptedTransport { request, _ in
            switch (request.method, request.url.contains("users-by-email")) {
            case (.delete, _): .success(HTTPResponse(status: 204))
            case (.get, true): .success(HTTPResponse(status: 200, body: Array("[\(user)]".utf8)))
            case (.post, _): .success(HTTPResponse(status: 201, body: Array(user.utf8)))
            default: .success(HTTPResponse(status: 200, body: Array(user.utf8)))
            }
        }
        let users = try answer.management().users
        let created = try await users.create(
            NewManagementUser(
                connection: "Username-Password-Authentication", email: "ada+x@example.com", emailVerified: true,
                name: "Ada")
        ).start()
        let found = try await users.list(byEmail: "ada+x@example.com").start()
        let read = try await users.get(id: "auth0|65f0c2d1").start()
        try await users.delete(id: "auth0|65f0c2d1").start()
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/api/v2/users",
                "https://login.example.com/api/v2/users-by-email?email=ada%2Bx%40example.com",
                "https://login.example.com/api/v2/users/auth0%7C65f0c2d1",
                "https://login.example.com/api/v2/users/auth0%7C65f0c2d1",
            ])
        #expect(answer.requests.map(\.method) == [.post, .get, .get, .delete])
        #expect(
            answer.body()
                == #"{"connection":"Username-Password-Authentication","email":"ada+x@example.com","#
                + #""email_verified":true,"name":"Ada"}"#)
        #expect(answer.requests.allSatisfy { $0.header("Authorization") == "Bearer AT-management" })
        #expect(created == read && found == [read])
        #expect(read.userId == "auth0|65f0c2d1" && read.identities.first?.userId == "65f0c2d1")
        #expect(read.identities.first?.isSocial == false && read.createdAt == "2025-05-15T13:29:32.321Z")
    }

    /// §15.3: a passkey the software authenticator made, attached with its COSE key in padded
    /// standard base64, its IDs in unpadded base64url, its flags and transports; the method paths.
    @Test func passkeyMethodFromARegistration() async throws {
        let handle = Array(0..<32).map(UInt8.init)
        let registration = try await WebAuthnClient(
            authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .platform)
        ).create(
            PublicKeyCredentialCreationOptionsJSON(
                rp: PublicKeyCredentialRpEntity(name: "localhost", id: "localhost"),
                user: PublicKeyCredentialUserEntityJSON(id: Base64URL(handle), name: "ada", displayName: "Ada"),
                challenge: Base64URL(SecureRandom.bytes(32)),
                pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)],
                authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required)),
            origin: try WebOrigin("https://localhost"))
        let passkey = try NewPasskeyMethod(
            registration: registration, userHandle: handle, relyingPartyIdentifier: "localhost")
        #expect(passkey.credentialID == registration.rawId.bytes)
        #expect(Array(passkey.publicKey.prefix(5)) == [0xA5, 0x01, 0x02, 0x03, 0x26])
        #expect(passkey.deviceType == .multiDevice && passkey.isBackedUp == true)
        let method =
            #"{"id":"passkey|dev_7Hq2","type":"passkey","key_id":"\#(registration.id)","credential_backed_up":true}"#
        let answer = ScriptedTransport { request, _ in
            switch request.method {
            case .delete: .success(HTTPResponse(status: 204))
            case .get: .success(HTTPResponse(status: 200, body: Array("[\(method)]".utf8)))
            default: .success(HTTPResponse(status: 201, body: Array(method.utf8)))
            }
        }
        let methods = try answer.management().authenticationMethods
        let created = try await methods.create(passkey, forUser: "auth0|65f0").start()
        let listed = try await methods.list(ofUser: "auth0|65f0").start()
        try await methods.delete(id: "passkey|dev_7Hq2", ofUser: "auth0|65f0").start()
        #expect(created.id == "passkey|dev_7Hq2" && listed == [created] && created.keyId == registration.id)
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/api/v2/users/auth0%7C65f0/authentication-methods",
                "https://login.example.com/api/v2/users/auth0%7C65f0/authentication-methods",
                "https://login.example.com/api/v2/users/auth0%7C65f0/authentication-methods/passkey%7Cdev_7Hq2",
            ])
        let body = try JSONDecoder().decode([String: JSONValue].self, from: Data(answer.requests[0].body ?? []))
        let transports = registration.response.transports?.map { JSONValue.string($0.rawValue) } ?? []
        let expected: [String: JSONValue] = [
            "type": .string("passkey"), "key_id": .string(registration.id),
            "public_key": .string(Data(passkey.publicKey).base64EncodedString()),
            "user_handle": .string(Base64URL.encode(handle)),
            "aaguid": .string(try #require(passkey.aaguid).description),
            "relying_party_identifier": .string("localhost"), "credential_device_type": .string("multi_device"),
            "credential_backed_up": .bool(true), "transports": .array(transports),
        ]
        #expect(body == expected)
        #expect(body["public_key"]?.stringValue?.hasPrefix("pQECAyYg") == true)
    }

    /// §15.4: statusCode, error, message and errorCode read from the body; `code` is `errorCode`.
    @Test(arguments: [
        (
            403,
            #"{"statusCode":403,"error":"Forbidden","message":"Insufficient scope, expected any of: create:users","#
                + #""errorCode":"insufficient_scope"}"#, "insufficient_scope",
            "Insufficient scope, expected any of: create:users."
        ),
        (
            404,
            #"{"statusCode":404,"error":"Not Found","message":"The user does not exist.","#
                + #""errorCode":"inexistent_user"}"#, "inexistent_user", "The user does not exist."
        ),
        (
            401, #"{"statusCode":401,"error":"Unauthorized","message":"Invalid token"}"#,
            "a0.sdk.internal_error.unknown", "Invalid token."
        ),
        (
            502, "<html>bad gateway</html>", "a0.sdk.internal_error.plain",
            "HTTP 502 with a body that is not a JSON object: <html>bad gateway</html>."
        ),
    ])
    func errorShape(status: Int, body: String, code: String, message: String) async throws {
        let answer = ScriptedTransport(status: status, json: body)
        let error = await #expect(throws: ManagementAPIError.self) {
            try await answer.management(retryPolicy: RetryPolicy(maxRetries: 0)).users.get(id: "auth0|x").start()
        }
        #expect(error?.statusCode == status)
        #expect(error?.code.rawValue == code)
        #expect(error?.message == message && error?.reason == message)
        #expect(error?.isInsufficientScope == (status == 403))
        #expect(error?.isNotFound == (status == 404))
        #expect(error?.isInvalidToken == (status == 401))
        if status == 403 { #expect(error?.error == "Forbidden" && error?.errorCode == "insufficient_scope") }
    }
}

extension ScriptedTransport {
    /// A Management API client that sends through this transport, with the token `AT-management`.
    func management(retryPolicy: RetryPolicy = RetryPolicy()) throws -> ManagementAPI {
        try ManagementAPI(
            token: "AT-management", baseURL: "https://login.example.com", client: client(retryPolicy: retryPolicy))
    }
}
