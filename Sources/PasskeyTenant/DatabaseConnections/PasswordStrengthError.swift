/// A password the connection's policy does not admit, as `/dbconnections/signup` answers it
/// (Auth0.swift's `isPasswordNotStrongEnough`: code `invalid_password`, name `PasswordStrengthError`):
///
/// ```json
/// {"name": "PasswordStrengthError", "message": "Password is too weak", "code": "invalid_password",
///  "description": {"rules": [{"message": "At least %d characters in length", "format": [8],
///                             "code": "lengthAtLeast", "verified": false}, …], "verified": false},
///  "policy": "* At least 8 characters in length\n…", "statusCode": 400}
/// ```
///
/// Carries the rules and their verdicts, never the password.
struct PasswordStrengthError: Error, Sendable, Hashable {
    /// The policy refused against.
    var policy: PasswordPolicy
    /// Each rule with whether the password kept it.
    var rules: [PasswordPolicy.Rule]

    /// The body Auth0 answers.
    var body: Body {
        Body(
            description: Description(rules: rules, verified: false), policy: policy.text)
    }

    /// The wire body.
    struct Body: Encodable {
        var name = "PasswordStrengthError"
        var message = "Password is too weak"
        var code = "invalid_password"
        var description: Description
        var policy: String
        var statusCode = 400
    }

    /// `description`: the rules and the overall verdict.
    struct Description: Encodable {
        var rules: [PasswordPolicy.Rule]
        var verified: Bool
    }
}
