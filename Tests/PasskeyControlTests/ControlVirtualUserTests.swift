import Auth0Passkeys
import Foundation
import PasskeyControl
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// Virtual users through the control API against a local tenant served on loopback: both hops
/// (test → control server → tenant) are real HTTP over libcurl.
@Suite struct ControlVirtualUserTests {
    @Test func aUserSignsUpLogsInCallsTheAPIAndLogsOut() async throws {
        let tenant = try await PasskeyTenant(configuration: TenantConfiguration(), database: ":memory:")
        try await tenant.serving { endpoint in
            try await withControlServer { client in
                let session = try await client.newSession()
                let authenticator = try await client.addAuthenticator(session, #"{"softpasskey:profile":"platform"}"#)
                let added = try await client.send(
                    .post, "/session/\(session)/users",
                    #"{"tenant":{"clientId":"\#(tenant.clientID)","baseURL":"\#(endpoint.baseURL)"},"authenticatorId":"\#(authenticator)"}"#
                )
                let user = try #require(added.value?.stringValue, "\(added.text)")
                let path = "/session/\(session)/users/\(user)"

                let signup = try await client.send(.post, path + "/signup", #"{"email":"ada@example.com"}"#)
                let signedUp = try #require(signup.value?.objectValue, "\(signup.text)")
                #expect(signedUp["email"]?.stringValue == "ada@example.com")
                #expect(signedUp["rpId"]?.stringValue == "localhost")
                let login = try await client.send(.post, path + "/login", "{}")
                let loggedIn = try #require(login.value?.objectValue, "\(login.text)")
                #expect(loggedIn["userId"]?.stringValue == signedUp["userId"]?.stringValue)
                #expect(loggedIn["credentialId"]?.stringValue == signedUp["credentialId"]?.stringValue)

                let credentials = try await client.send(
                    .get, "/session/\(session)/webauthn/authenticator/\(authenticator)/credentials")
                #expect(credentials.value?.arrayValue?.count == 1)

                let laptop = try await client.addAuthenticator(session, #"{"softpasskey:profile":"platform"}"#)
                let enrolled = try await client.send(.post, path + "/enroll", #"{"authenticatorId":"\#(laptop)"}"#)
                #expect(enrolled.status == 200, "\(enrolled.text)")
                let token = try await client.send(
                    .post, path + "/token",
                    #"{"audience":"\#(tenant.configuration.apiAudience)","scope":"read:events"}"#)
                #expect(token.value?["accessToken"]?.stringValue != nil, "\(token.text)")
                let api = try await client.send(
                    .post, path + "/api",
                    #"{"url":"\#(endpoint.baseURL)/api/events","audience":"\#(tenant.configuration.apiAudience)","scope":"read:events"}"#
                )
                #expect(api.value?["status"]?.numberValue == 200, "\(api.text)")

                let logout = try await client.send(.post, path + "/logout", #"{"revoke":true}"#)
                #expect(logout.value?["revoked"]?.boolValue == true)
                let noSession = try await client.send(.post, path + "/token", "{}")
                #expect(noSession.status == 400 && noSession.error == "noCredentials", "\(noSession.text)")
            }
        }
    }

    @Test func aTenantThatDoesNotAnswerIsA502NamingTheTransportFailure() async throws {
        try await withControlServer { client in
            let session = try await client.newSession()
            let authenticator = try await client.addAuthenticator(session, #"{"softpasskey:profile":"platform"}"#)
            let added = try await client.send(
                .post, "/session/\(session)/users",
                #"{"tenant":{"clientId":"abc","baseURL":"http://127.0.0.1:9"},"authenticatorId":"\#(authenticator)"}"#)
            let user = try #require(added.value?.stringValue)
            let signup = try await client.send(.post, "/session/\(session)/users/\(user)/signup", #"{"email":"a@b.c"}"#)
            #expect(signup.status == 502, "\(signup.text)")
            #expect(signup.error?.isEmpty == false)
        }
    }
}
