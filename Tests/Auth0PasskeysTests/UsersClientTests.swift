import Auth0Passkeys
import FoundationEssentials
import Testing
import WebAuthn

/// Auth0.swift's `Users` (issue 41): `users(token:domain:)` and its four calls, byte for byte:
/// the paths with the IDs percent-encoded, the query of `fields`, the bodies, the answers read.
@Suite struct UsersClientTests {
    static let user = #"{"user_id":"auth0|abc","user_metadata":{"theme":"dark","prefs":{"a":1}},"identities":[]}"#
    static let identities =
        #"[{"connection":"c","user_id":"abc","provider":"auth0","isSocial":false},"#
        + #"{"connection":"c","user_id":"def","provider":"auth0","isSocial":false,"profileData":{"email":"b@x.io"}}]"#

    @Test func getAsksForTheFieldsOfTheUser() async throws {
        let answer = ScriptedTransport(json: Self.user)
        let user = try await users(token: "AT", domain: "login.example.com", transport: answer)
            .get("auth0|abc", fields: ["user_metadata", "email"], include: false).start()
        #expect(
            answer.requests.map(\.url)
                == [
                    "https://login.example.com/api/v2/users/auth0%7Cabc?fields=user_metadata%2Cemail&include_fields=false"
                ])
        #expect(answer.requests.first?.method == .get)
        #expect(
            answer.requests.first?.headers.contains { $0.name == "Authorization" && $0.value == "Bearer AT" } == true)
        #expect(user.userMetadata == ["theme": .string("dark"), "prefs": .object(["a": .number(1)])])
    }

    @Test func patchSendsTheUserMetadata() async throws {
        let answer = ScriptedTransport(json: Self.user)
        _ = try await users(token: "AT", domain: "login.example.com", transport: answer)
            .patch("auth0|abc", userMetadata: ["theme": .string("dark"), "old": .null]).start()
        #expect(answer.requests.first?.method == .patch)
        #expect(answer.requests.map(\.url) == ["https://login.example.com/api/v2/users/auth0%7Cabc"])
        #expect(answer.body() == #"{"user_metadata":{"old":null,"theme":"dark"}}"#)
    }

    @Test func linkAndUnlinkAnswerTheIdentities() async throws {
        let answer = ScriptedTransport(json: Self.identities)
        let api = users(token: "AT", domain: "login.example.com", transport: answer)
        let linked = try await api.link("auth0|abc", withOtherUserToken: "ID-TOKEN").start()
        _ = try await api.link("auth0|abc", withUser: "def", provider: "auth0").start()
        _ = try await api.unlink(identityId: "def", provider: "auth0", fromUserId: "auth0|abc").start()
        #expect(answer.requests.map(\.method) == [.post, .post, .delete])
        #expect(
            answer.requests.map(\.url) == [
                "https://login.example.com/api/v2/users/auth0%7Cabc/identities",
                "https://login.example.com/api/v2/users/auth0%7Cabc/identities",
                "https://login.example.com/api/v2/users/auth0%7Cabc/identities/auth0/def",
            ])
        #expect(answer.body(0) == #"{"link_with":"ID-TOKEN"}"#)
        #expect(answer.body(1) == #"{"provider":"auth0","user_id":"def"}"#)
        #expect(linked.map(\.userId) == ["abc", "def"])
        #expect(linked[1].profileData?["email"] == .string("b@x.io"))
    }
}
