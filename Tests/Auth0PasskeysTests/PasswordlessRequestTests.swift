import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import Testing
import WebAuthn

/// Passwordless requests (issue 41) as Auth0.swift sends them: `POST /passwordless/start` with
/// `client_id`, `connection`, `send` and the address; the passwordless OTP grant with `username`,
/// `otp`, `realm`, `scope` (with `openid`) and `audience`; the code never in a trace.
@Suite struct PasswordlessRequestTests {
    @Test func startSendsAuth0SwiftsBody() async throws {
        let answer = ScriptedTransport(json: #"{"_id":"0123456789abcdef01234567","email":"ada@example.com"}"#)
        let auth = try answer.authentication()
        try await auth.startPasswordless(email: "ada@example.com").start()
        try await auth.startPasswordless(phoneNumber: "+15555550100", type: .code, connection: "sms").start()
        try await auth.startPasswordless(email: "ada@example.com", type: .webLink, connection: "email").start()
        #expect(answer.requests[0].url == "https://login.example.com/passwordless/start")
        #expect(
            answer.body(0)
                == #"{"client_id":"\#(Fixtures.clientID)","connection":"email","email":"ada@example.com","send":"code"}"#
        )
        #expect(
            answer.body(1)
                == #"{"client_id":"\#(Fixtures.clientID)","connection":"sms","phone_number":"+15555550100","send":"code"}"#
        )
        #expect(answer.body(2).contains(#""send":"link""#))
    }

    @Test func theOTPGrantCarriesTheCodeAndItsRealmButNeverLogsIt() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let auth = try answer.authentication(logger: logger)
        _ = try await auth.login(email: "ada@example.com", code: "314159", audience: "https://api/", scope: "email")
            .start()
        _ = try await auth.login(phoneNumber: "+15555550100", code: "271828").start()
        #expect(answer.requests[0].url == "https://login.example.com/oauth/token")
        #expect(
            answer.body(0)
                == #"{"audience":"https://api/","client_id":"\#(Fixtures.clientID)","#
                + #""grant_type":"http://auth0.com/oauth/grant-type/passwordless/otp","otp":"314159","#
                + #""realm":"email","scope":"openid email","username":"ada@example.com"}"#)
        #expect(answer.body(1).contains(#""realm":"sms""#) && answer.body(1).contains(#""otp":"271828""#))
        #expect(!logs.entries.isEmpty, "the trace was on")
        for entry in logs.entries {
            let text = "\(entry.message) \(entry.metadata ?? [:])"
            #expect(!text.contains("314159") && !text.contains("271828"), "\(text)")
        }
    }
}
