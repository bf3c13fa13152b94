import Auth0Passkeys
import FoundationEssentials
import InMemoryLogging
import Logging
import Testing
import WebAuthn

/// Database connections as Auth0.swift calls them: the bodies of the password grants,
/// `/dbconnections/signup` and `/dbconnections/change_password` exactly, the answers decoded,
/// Auth0's refusals read by its predicates, and no password or CAPTCHA answer in a trace.
@Suite struct DatabaseConnectionTests {
    static let connection = "Username-Password-Authentication"

    @Test func passwordRealmLoginSendsAuth0sGrant() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        let credentials = try await answer.authentication().login(
            usernameOrEmail: "ada@example.com", password: "correct horse battery", realmOrConnection: Self.connection,
            audience: "https://api.example.com/", scope: "profile"
        ).start()
        #expect(credentials.accessToken == "AT-1")
        #expect(answer.requests[0].url == "https://login.example.com/oauth/token")
        #expect(
            answer.body()
                == #"{"audience":"https://api.example.com/","client_id":"\#(Fixtures.clientID)","#
                + #""grant_type":"http://auth0.com/oauth/grant-type/password-realm","#
                + #""password":"correct horse battery","realm":"Username-Password-Authentication","#
                + #""scope":"openid profile","username":"ada@example.com"}"#)
    }

    @Test func defaultDirectoryLoginSendsThePasswordGrantWithACaptcha() async throws {
        let answer = ScriptedTransport(json: Fixtures.tokens())
        _ = try await answer.authentication().loginDefaultDirectory(
            withUsername: "ada", password: "correct horse battery", captcha: "7 dogs"
        ).start()
        #expect(
            answer.body()
                == #"{"captcha":"7 dogs","client_id":"\#(Fixtures.clientID)","grant_type":"password","#
                + #""password":"correct horse battery","scope":"openid profile email offline_access","#
                + #""username":"ada"}"#)
    }

    @Test func signupSendsTheUserAndKeepsItsOwnMembersOverRootAttributes() async throws {
        let answer = ScriptedTransport(
            json: #"{"_id":"65f0c1d2e3a4b5c6d7e8f901","email":"ada@example.com","email_verified":false,"#
                + #""username":"ada"}"#)
        let user = try await answer.authentication().signup(
            email: "ada@example.com", username: "ada", password: "correct horse battery",
            userMetadata: ["plan": "trial"],
            rootAttributes: ["given_name": .string("Ada"), "email": .string("eve@example.com")]
        ).start()
        #expect(user.email == "ada@example.com" && user.username == "ada" && !user.verified)
        #expect(user.id == "65f0c1d2e3a4b5c6d7e8f901")
        #expect(answer.requests[0].url == "https://login.example.com/dbconnections/signup")
        #expect(
            answer.body()
                == #"{"client_id":"\#(Fixtures.clientID)","connection":"Username-Password-Authentication","#
                + #""email":"ada@example.com","given_name":"Ada","password":"correct horse battery","#
                + #""user_metadata":{"plan":"trial"},"username":"ada"}"#)
    }

    @Test func signupAnswerWithoutAnEmailIsADecodingFailure() async throws {
        let answer = ScriptedTransport(json: #"{"_id":"65f0c1d2e3a4b5c6d7e8f901"}"#)
        let error = await #expect(throws: AuthenticationError.self) {
            try await answer.authentication().signup(email: "a@example.com", password: "pw").start()
        }
        #expect(error?.code == .plain && error?.statusCode == 200)
    }

    @Test func resetPasswordTakesAuth0sPlainTextAnswer() async throws {
        let answer = ScriptedTransport { _, _ in
            .success(
                HTTPResponse(
                    status: 200, headers: [(name: "Content-Type", value: "text/html; charset=utf-8")],
                    body: Array("We've just sent you an email to reset your password.".utf8)))
        }
        try await answer.authentication().resetPassword(email: "ada@example.com", connection: Self.connection).start()
        #expect(answer.requests[0].url == "https://login.example.com/dbconnections/change_password")
        #expect(
            answer.body()
                == #"{"client_id":"\#(Fixtures.clientID)","connection":"Username-Password-Authentication","#
                + #""email":"ada@example.com"}"#)
        #expect(answer.requests.count == 1)
    }

    /// Auth0's answers to each refusal, read by Auth0.swift's predicates; none is retried.
    @Test(arguments: [
        (403, #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#, "isInvalidCredentials"),
        (
            429, #"{"error":"too_many_attempts","error_description":"Your account has been blocked."}"#,
            "isTooManyAttempts"
        ),
        (
            400,
            #"{"name":"PasswordStrengthError","code":"invalid_password","description":{"rules":[]},"#
                + #""policy":"* At least 8 characters in length","statusCode":400}"#,
            "isPasswordNotStrongEnough"
        ),
        (
            400,
            #"{"name":"PasswordHistoryError","code":"invalid_password","#
                + #""description":"Password has previously been used","statusCode":400}"#,
            "isPasswordAlreadyUsed"
        ),
        (
            401, #"{"error":"requires_verification","error_description":"Suspicious request requires verification"}"#,
            "isVerificationRequired"
        ),
    ])
    func refusalsMatchTheirPredicate(status: Int, body: String, predicate: String) async throws {
        let predicates: [String: (AuthenticationError) -> Bool] = [
            "isInvalidCredentials": \.isInvalidCredentials, "isTooManyAttempts": \.isTooManyAttempts,
            "isPasswordNotStrongEnough": \.isPasswordNotStrongEnough,
            "isPasswordAlreadyUsed": \.isPasswordAlreadyUsed, "isVerificationRequired": \.isVerificationRequired,
        ]
        let answer = ScriptedTransport(status: status, json: body)
        let error = try #require(
            await #expect(throws: AuthenticationError.self) {
                try await answer.authentication().login(
                    usernameOrEmail: "ada@example.com", password: "pw", realmOrConnection: Self.connection
                ).start()
            })
        let holds = try #require(predicates[predicate])
        #expect(holds(error), "\(error)")
        #expect(predicates.filter { $0.value(error) }.count == 1, "\(error)")
        #expect(error.statusCode == status && answer.requests.count == 1)
    }

    @Test func userExistsKeepsItsCodeAndDescription() async throws {
        let answer = ScriptedTransport(
            status: 400,
            json: #"{"name":"BadRequestError","code":"user_exists","description":"The user already exists.","#
                + #""statusCode":400}"#)
        let error = await #expect(throws: AuthenticationError.self) {
            try await answer.authentication().signup(email: "ada@example.com", password: "pw").start()
        }
        #expect(error?.code.rawValue == "user_exists" && error?.reason == "The user already exists.")
    }

    /// STYLE §5: the password, the new password and the CAPTCHA answer never reach a trace.
    @Test func aTracedPasswordSignupAndLoginLogNoPassword() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "test", factory: { _ in logs })
        logger.logLevel = .trace
        let answer = ScriptedTransport { request, _ in
            let body = request.url.hasSuffix("signup") ? #"{"email":"ada@example.com"}"# : Fixtures.tokens()
            return .success(HTTPResponse(status: 200, headers: [], body: Array(body.utf8)))
        }
        let auth = try answer.authentication(logger: logger)
        let password = "Tr0ub4dor&3-horse-staple"
        let captcha = "captcha-answer-9f2c"
        _ = try await auth.signup(email: "ada@example.com", password: password, captcha: captcha).start()
        _ = try await auth.login(
            usernameOrEmail: "ada@example.com", password: password, realmOrConnection: Self.connection,
            captcha: captcha
        ).start()
        let text = logs.entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(text.contains(#""password":"<redacted>""#) && text.contains(#""captcha":"<redacted>""#))
        #expect(!text.contains(password) && !text.contains(captcha))
    }
}
