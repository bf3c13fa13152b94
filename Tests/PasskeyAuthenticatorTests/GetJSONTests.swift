import TestSupport
import Testing
import WebAuthn

@testable import PasskeyAuthenticator

/// `WebAuthnClient.get(json:origin:topOrigin:)` answers as decoding the options, `get` and
/// encoding the response do: byte for byte with a seeded authenticator (RFC 6979 signatures),
/// the same error otherwise, whether its path without suspending answers or steps aside; and a
/// relying party accepts what it answers.
@Suite struct GetJSONTests {
    static let origin = try! WebOrigin("https://login.example.com")

    /// A client over `store` with one discoverable credential of example.com registered through it.
    struct Rig {
        let client: WebAuthnClient
        let credentialID: String
        let record: CredentialRecord

        init(store: any CredentialStore, profile: AuthenticatorProfile = .platform, seeded: Bool = true) async throws {
            let authenticator = SoftwareAuthenticator(
                store: store, profile: profile.narrowed(for: store),
                seed: seeded ? try Seed(hex: String(repeating: "5a", count: 32)) : nil)
            client = WebAuthnClient(authenticator: authenticator)
            let creation = PublicKeyCredentialCreationOptionsJSON(
                rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.com"),
                user: PublicKeyCredentialUserEntityJSON(
                    id: Base64URL(Array("user-ada".utf8)), name: "ada", displayName: "Ada"),
                challenge: Base64URL([UInt8](repeating: 0xC1, count: 32)),
                pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)],
                authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required))
            let registration = try await client.create(creation, origin: GetJSONTests.origin)
            credentialID = registration.id
            record = try RelyingParty(id: "example.com", origins: ["https://login.example.com"]).verifyRegistration(
                registration, challenge: creation.challenge.bytes
            ).record()
        }

        /// What decoding, `get` and encoding answer: the response's bytes, or the error.
        func answer(_ options: String, topOrigin: WebOrigin? = nil) async -> Result<[UInt8], WebAuthnClientError> {
            let decoded: PublicKeyCredentialRequestOptionsJSON
            do {
                decoded = try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(options.utf8))
            } catch {
                return .failure(WebAuthnClientError(.syntax, "the request options are not valid: \(error.reason)"))
            }
            do {
                return .success(
                    WebAuthnJSON.encode(
                        try await client.get(decoded, origin: GetJSONTests.origin, topOrigin: topOrigin)))
            } catch {
                return .failure(error)
            }
        }

        /// What `get(json:)` answers.
        func answerJSON(_ options: String, topOrigin: WebOrigin? = nil) async -> Result<[UInt8], WebAuthnClientError> {
            do {
                return .success(
                    try await client.get(json: Array(options.utf8), origin: GetJSONTests.origin, topOrigin: topOrigin)
                        .json)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Options in the plain form (answered without suspending) and in others (decoded first).
    static func options(_ id: String) -> [(String, plain: Bool)] {
        let challenge = "wsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsI"
        let allow = #"[{"type":"public-key","id":"\#(id)"}]"#
        return [
            (#"{"challenge":"\#(challenge)","rpId":"example.com","allowCredentials":\#(allow)}"#, true),
            (#"{"challenge":"\#(challenge)","rpId":"example.com"}"#, true),
            (#"{"challenge":"\#(challenge)"}"#, true),
            (#"{"rpId":"login.example.com","challenge":"AAEC","allowCredentials":[]}"#, true),
            (
                #" { "timeout" : 60000 , "challenge" : "AAEC" , "rpId" : "EXAMPLE.com" , "hints" : ["client-device"] ,"#
                    + #" "userVerification" : "required" , "extensions" : null , "allowCredentials" : \#(allow) } "#,
                true
            ),
            (#"{"challenge":"AAEC","userVerification":"discouraged","rpId":null,"timeout":null,"hints":null}"#, true),
            (#"{"challenge":"AAEC","userVerification":"whatever","rpId":"example.com"}"#, true),
            (
                #"{"challenge":"AAEC","rpId":"example.com","allowCredentials":[{"type":"other","id":"AAAA"},"#
                    + #"{"id":"\#(id)","transports":["internal","hybrid"],"type":"public-key"}]}"#,
                true
            ),
            // No candidate, or not the origin's RP ID: the ordinary path's error.
            (
                #"{"challenge":"AAEC","rpId":"example.com","allowCredentials":[{"type":"public-key","id":"AAAA"}]}"#,
                true
            ),
            (#"{"challenge":"AAEC","rpId":"other.example"}"#, true),
            (#"{"challenge":"AAEC","rpId":"com"}"#, true),
            (#"{"challenge":""}"#, true),
            // Not plain: decoded first, to the same value or error.
            (#"{"challenge":"AAE=","rpId":"example.com"}"#, false),
            (#"{"challenge":"AAEC","rpId":"ex\u0061mple.com"}"#, false),
            (#"{"challenge":"AAEC","rpId":"example.com","extensions":{"credProps":true}}"#, false),
            (#"{"challenge":"AAEC","rpId":"example.com","extensions":{}}"#, false),
            (#"{"challenge":"AAEC","rpId":"example.com","somethingElse":[1,2]}"#, false),
            (#"{"challenge":"AAEC","challenge":"AAEC"}"#, false),
            (#"{"challenge":"AAEC","timeout":1.5}"#, false),
            (#"{"challenge":"AAEC","timeout":-1}"#, false),
            (#"{"challenge":"AAEC","timeout":4294967296}"#, false),
            (#"{"challenge":"AAEC","allowCredentials":[{"type":"public-key"}]}"#, false),
            (#"{"challenge":"AAEC","allowCredentials":[{"type":"public-key","id":"AA+/"}]}"#, false),
            (#"{"rpId":"example.com"}"#, false),
            (#"{"challenge":"AAEC""#, false),
            (#"{"challenge":"AAEC"} x"#, false),
            (#"[]"#, false),
        ]
    }

    @Test func inMemoryAnswersAsDecodingGetAndEncoding() async throws {
        let rig = try await Rig(store: InMemoryCredentialStore())
        try await Self.expectSameAnswers(rig)
    }

    @Test func fileStoreAnswersAsDecodingGetAndEncoding() async throws {
        let directory = try TemporaryDirectory(prefix: "get-json")
        defer { directory.remove() }
        let rig = try await Rig(store: try await FileCredentialStore(directory: directory.appending("store")))
        try await Self.expectSameAnswers(rig)
    }

    static func expectSameAnswers(_ rig: Rig) async throws {
        for (options, plain) in options(rig.credentialID) {
            #expect((PlainRequestOptions(Array(options.utf8)) != nil) == plain, "\(options)")
            let expected = await rig.answer(options)
            let answered = await rig.answerJSON(options)
            switch (expected, answered) {
            case (.success(let expected), .success(let answered)):
                #expect(
                    String(decoding: answered, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "\(options)"
                )
            case (.failure(let expected), .failure(let answered)):
                #expect(answered.name == expected.name && answered.message == expected.message, "\(options)")
            default:
                Issue.record("\(options): \(expected) but \(answered)")
            }
        }
        // The plain path answered: the credential was at hand (for a file store, read by now).
        let authenticator = try #require(rig.client.authenticator as? SoftwareAuthenticator)
        let allowList = try #require(PlainRequestOptions(Array(options(rig.credentialID)[0].0.utf8))).allowList
        #expect(
            authenticator.immediateAssertion(
                rpID: "example.com", clientDataHash: SHA256Digest.hash([1]), allowList: allowList,
                userVerification: true) != nil)
        let crossOrigin = try WebOrigin("https://embedder.example")
        let options = #"{"challenge":"AAEC","rpId":"example.com"}"#
        #expect(
            try await rig.answerJSON(options, topOrigin: crossOrigin).get()
                == rig.answer(options, topOrigin: crossOrigin).get())
    }

    /// The plain path signs: the relying party accepts its response, for the allow list and for a
    /// discoverable request, from a store at hand.
    @Test func aRelyingPartyAcceptsTheAnswer() async throws {
        let rig = try await Rig(store: InMemoryCredentialStore(), seeded: false)
        let challenge = SecureRandom.bytes(32)
        for allow in ["", #","allowCredentials":[{"type":"public-key","id":"\#(rig.credentialID)"}]"#] {
            let options = Array(#"{"challenge":"\#(Base64URL.encode(challenge))","rpId":"example.com"\#(allow)}"#.utf8)
            let plain = try #require(PlainRequestOptions(options))
            let authenticator = try #require(rig.client.authenticator as? SoftwareAuthenticator)
            #expect(
                authenticator.immediateAssertion(
                    rpID: "example.com", clientDataHash: SHA256Digest.hash([1]), allowList: plain.allowList,
                    userVerification: true) != nil)
            let response = try WebAuthnJSON.decode(
                AuthenticationResponseJSON.self, from: try await rig.client.get(json: options, origin: Self.origin).json
            )
            let verified = try RelyingParty(id: "example.com", origins: ["https://login.example.com"])
                .verifyAuthentication(
                    response, challenge: challenge, credential: rig.record)
            #expect(verified.userVerified)
            #expect(response.authenticatorAttachment == .platform)
        }
    }

    /// What `get(json:)` reports beside the text (for a front end's events and summaries) is what
    /// the text says, on the path without suspending and on the ordinary one, with a counter or not.
    @Test(arguments: [false, true])
    func theReportIsTheResponses(counting: Bool) async throws {
        let rig = try await Rig(store: InMemoryCredentialStore(), profile: counting ? .securityKey : .platform)
        for options in [
            #"{"challenge":"AAEC","rpId":"EXAMPLE.com"}"#,
            #"{"challenge":"AAEC","rpId":"example.com","extensions":{}}"#,
        ] {
            let assertion = try await rig.client.get(json: Array(options.utf8), origin: Self.origin)
            let response = try assertion.response()
            #expect(assertion.credentialID == response.rawId.bytes)
            #expect(assertion.userHandle == response.response.userHandle?.bytes)
            #expect(assertion.userHandle == Array("user-ada".utf8))
            let signCount = try AuthenticatorData(bytes: response.response.authenticatorData.bytes).signCount
            #expect(assertion.signCount == signCount)
            #expect((signCount > 0) == counting)
            #expect(assertion.rpID == "example.com")
        }
    }

    /// A profile that counts signatures advances its counter on every `get(json:)`: it takes the
    /// ordinary path, whose counter write is durable before the signature exists.
    @Test func aCountingProfileStillCounts() async throws {
        let directory = try TemporaryDirectory(prefix: "get-json-count")
        defer { directory.remove() }
        let rig = try await Rig(
            store: try await FileCredentialStore(directory: directory.appending("store")), profile: .securityKey,
            seeded: false)
        let options = Array(#"{"challenge":"AAEC","rpId":"example.com"}"#.utf8)
        var counters: [UInt32] = []
        for _ in 0..<3 {
            let response = try WebAuthnJSON.decode(
                AuthenticationResponseJSON.self, from: try await rig.client.get(json: options, origin: Self.origin).json
            )
            counters.append(try AuthenticatorData(bytes: response.response.authenticatorData.bytes).signCount)
        }
        #expect(counters == [1, 2, 3])
    }
}
