import Auth0Passkeys
import FoundationEssentials
import Testing
import WebAuthn

/// The error model of spec §7: code and message precedence, predicates, retryability, and the
/// errors the library makes itself.
@Suite struct ErrorTests {
    func authError(_ json: String, status: Int = 400) async -> AuthenticationError? {
        await #expect(throws: AuthenticationError.self) {
            try await ScriptedTransport(status: status, json: json).authentication(retryPolicy: .none)
                .passkeyLoginChallenge().start()
        }
    }

    @Test func oauthBody() async {
        let error = await authError(
            #"{"error":"invalid_grant","error_description":"Unknown or invalid refresh token."}"#)
        #expect(error?.code == .invalidGrant)
        #expect(error?.statusCode == 400)
        #expect(error?.info["statusCode"] == .number(400))
        #expect(error?.isInvalidRefreshToken == true)
        #expect(error?.isRetryable == false)
        #expect(error?.description == "invalid_grant (HTTP 400): Unknown or invalid refresh token.")
    }

    @Test func legacyBodyAndPrecedence() async {
        let error = await authError(
            #"{"code":"invalid_password","error":"wins","description":"d wins","error_description":"no","name":"PasswordStrengthError","statusCode":999}"#
        )
        #expect(error?.code.rawValue == "wins")
        #expect(error?.reason == "d wins.")
        #expect(error?.statusCode == 400)
        let legacy = await authError(
            #"{"code":"invalid_password","description":"weak","name":"PasswordStrengthError"}"#)
        #expect(legacy?.isPasswordNotStrongEnough == true)
        #expect(legacy?.isPasswordAlreadyUsed == false)
    }

    /// `/dbconnections/signup`'s `invalid_password`: `description` is an object of rules, so the
    /// reason is the top-level `message` and the `policy`.
    @Test func aWeakPasswordReadsTheMessageAndThePolicy() async {
        let error = await authError(
            #"{"name":"PasswordStrengthError","message":"Password is too weak","code":"invalid_password","description":{"rules":[{"message":"At least %d characters in length","format":[8],"code":"lengthAtLeast","verified":false}],"verified":false},"policy":"* At least 8 characters in length","statusCode":400}"#
        )
        #expect(error?.isPasswordNotStrongEnough == true)
        #expect(error?.reason == "Password is too weak.\n* At least 8 characters in length")
    }

    /// Each predicate of spec §7.2 with an answer that sets it, and its name for the report.
    static let predicateCases: [(json: String, name: String, holds: @Sendable (AuthenticationError) -> Bool)] = [
        (#"{"error":"mfa_required"}"#, "isMultifactorRequired", { $0.isMultifactorRequired }),
        (
            #"{"error":"a0.mfa_registration_required"}"#, "isMultifactorEnrollRequired",
            { $0.isMultifactorEnrollRequired }
        ),
        (
            #"{"error":"invalid_grant","error_description":"Invalid otp_code."}"#, "isMultifactorCodeInvalid",
            { $0.isMultifactorCodeInvalid }
        ),
        (
            #"{"error":"expired_token","error_description":"mfa_token is expired"}"#, "isMultifactorTokenInvalid",
            { $0.isMultifactorTokenInvalid }
        ),
        (
            #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#, "isInvalidCredentials",
            { $0.isInvalidCredentials }
        ),
        (
            #"{"error":"invalid_grant","error_description":"The refresh_token was generated for a user who doesn't exist anymore."}"#,
            "isRefreshTokenDeleted", { $0.isRefreshTokenDeleted }
        ),
        (#"{"error":"access_denied"}"#, "isAccessDenied", { $0.isAccessDenied }),
        (#"{"error":"too_many_attempts"}"#, "isTooManyAttempts", { $0.isTooManyAttempts }),
        (#"{"error":"requires_verification"}"#, "isVerificationRequired", { $0.isVerificationRequired }),
        (#"{"error":"password_leaked"}"#, "isPasswordLeaked", { $0.isPasswordLeaked }),
        (#"{"error":"unauthorized"}"#, "isRuleError", { $0.isRuleError }),
        (#"{"error":"login_required"}"#, "isLoginRequired", { $0.isLoginRequired }),
        (#"{"error":"use_dpop_nonce"}"#, "isDPoPNonceRequired", { $0.isDPoPNonceRequired }),
    ]

    @Test(arguments: predicateCases)
    func predicates(json: String, name: String, holds predicate: @Sendable (AuthenticationError) -> Bool) async {
        let error = await authError(json)
        #expect(error.map(predicate) == true)
        let other = await authError(#"{"error":"something_else","error_description":"Invalid otp_code."}"#)
        #expect(other.map(predicate) == false)
    }

    @Test func bodyWithoutCode() async {
        let error = await authError(#"{"message":"?"}"#)
        #expect(error?.code == .unknown)
        #expect(error?.reason == "Failed with unknown error.")
    }

    @Test(arguments: [("<html>Bad gateway</html>", 502), ("", 401), ("[1,2]", 400)])
    func bodyThatIsNotAJSONObject(body: String, status: Int) async {
        let error = await authError(body, status: status)
        #expect(error?.code == .plain)
        #expect(error?.statusCode == status)
        #expect(error?.reason.contains("HTTP \(status)") == true)
        if !body.isEmpty { #expect(error?.reason.contains(body) == true) }
        #expect(error?.isRetryable == (status == 502))
    }

    @Test func emptySuccessBodyWhereOneIsNeeded() async {
        let error = await authError("", status: 200)
        #expect(error?.code == .empty)
    }

    @Test func transportFailure() async {
        let answer = ScriptedTransport { _, _ in .failure(TransportError(.cannotConnect, "refused")) }
        let error = await #expect(throws: AuthenticationError.self) {
            try await answer.authentication(retryPolicy: .none).passkeyLoginChallenge().start()
        }
        #expect(error?.code == .plain && error?.statusCode == 0)
        #expect(error?.isNetworkError == true && error?.isRetryable == true)
        #expect(error?.cause as? TransportError == TransportError(.cannotConnect, ""))
        let tls = ScriptedTransport { _, _ in .failure(TransportError(.tls, "bad certificate")) }
        let tlsError = await #expect(throws: AuthenticationError.self) {
            try await tls.authentication().passkeyLoginChallenge().start()
        }
        #expect(tlsError?.isNetworkError == false && tls.requests.count == 1)
    }

    @Test func myAccountProblemDocument() async {
        let answer = ScriptedTransport(
            status: 400,
            json: #"{"type":"https://auth0.com/api-errors/A0E-400-0003","status":400,"title":"Bad Request","#
                + #""detail":"Invalid request payload","validation_errors":[{"detail":"must be passkey","field":"type","pointer":""}]}"#
        )
        let error = await #expect(throws: MyAccountError.self) {
            try await answer.myAccount().authenticationMethods.passkeyEnrollmentChallenge().start()
        }
        #expect(error?.code.rawValue == "https://auth0.com/api-errors/A0E-400-0003")
        #expect(error?.title == "Bad Request")
        #expect(error?.reason == "Bad Request: Invalid request payload.")
        #expect(error?.validationErrors?.first?.field == "type")
        #expect(error?.validationErrors?.first?.pointer == nil)
        let empty = ScriptedTransport(status: 400, json: "{}")
        let emptyError = await #expect(throws: MyAccountError.self) {
            try await empty.myAccount().authenticationMethods.passkeyEnrollmentChallenge().start()
        }
        #expect(emptyError?.code == .unknown && emptyError?.reason == "")
    }
}
