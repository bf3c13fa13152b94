/// A database connection's password strength policy: Auth0's five levels, after OWASP's
/// recommendations (Auth0 docs, "Password Strength in Auth0 Database Connections"; the presets of
/// `auth0-password-policies`).
///
/// ```
/// none       at least 1 character
/// low        at least 6 characters
/// fair       at least 8 characters, with lower case, upper case and numbers
/// good       at least 8 characters, with 3 of: lower case, upper case, numbers, special characters
/// excellent  at least 10 characters, 3 of the 4 types, no character more than twice in a row
/// ```
///
/// `good` is the policy of a new Auth0 database connection, and the tenant's default.
public enum PasswordPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    case none, low, fair, good, excellent

    /// One rule of a policy and whether a password keeps it: an element of the `rules` of Auth0's
    /// `PasswordStrengthError` (`{"message", "format", "code", "verified"}`).
    struct Rule: Sendable, Hashable, Encodable {
        var message: String
        var format: [Int]?
        var code: String
        var verified: Bool
    }

    /// The rules `password` is checked against, each with whether it holds.
    func rules(for password: String) -> [Rule] {
        let characters = Array(password)
        let classes = [
            characters.contains { $0.isLowercase }, characters.contains { $0.isUppercase },
            characters.contains { $0.isASCII && $0.isNumber }, characters.contains(where: Self.isSpecial),
        ]
        let length = { (minimum: Int) in
            Rule(
                message: "At least %d characters in length", format: [minimum], code: "lengthAtLeast",
                verified: characters.count >= minimum)
        }
        let threeOfFour = Rule(
            message: "Contain at least %d of the following %d types of characters:", format: [3, 4],
            code: "containsAtLeast", verified: classes.filter { $0 }.count >= 3)
        switch self {
        case .none:
            return [length(1)]
        case .low:
            return [length(6)]
        case .fair:
            return [
                length(8),
                Rule(
                    message: "Should contain: lower case letters (a-z), upper case letters (A-Z), numbers (i.e. 0-9)",
                    code: "shouldContain", verified: classes[0] && classes[1] && classes[2]),
            ]
        case .good:
            return [length(8), threeOfFour]
        case .excellent:
            var repeated = false
            for index in characters.indices.dropFirst(2)
            where characters[index] == characters[index - 1] && characters[index] == characters[index - 2] {
                repeated = true
            }
            return [
                length(10), threeOfFour,
                Rule(
                    message: "No more than %d identical characters in a row (e.g., \"%s\" not allowed)",
                    format: [2], code: "identicalChars", verified: !repeated),
            ]
        }
    }

    /// Whether `password` keeps every rule.
    func admits(_ password: String) -> Bool {
        rules(for: password).allSatisfy(\.verified)
    }

    /// The policy as Auth0 words it in `policy` (and the login page shows it).
    var text: String {
        let types = """
            * Contain at least 3 of the following 4 types of characters:
             * lower case letters (a-z)
             * upper case letters (A-Z)
             * numbers (i.e. 0-9)
             * special characters (e.g. !@#$%^&*)
            """
        switch self {
        case .none: return "* At least 1 character in length"
        case .low: return "* At least 6 characters in length"
        case .fair:
            return """
                * At least 8 characters in length
                * Lower case letters (a-z)
                * Upper case letters (A-Z)
                * Numbers (i.e. 0-9)
                """
        case .good: return "* At least 8 characters in length\n" + types
        case .excellent:
            return "* At least 10 characters in length\n" + types
                + "\n* No more than 2 identical characters in a row (e.g., \"aaa\" not allowed)"
        }
    }

    /// A special character: printable ASCII that is neither a letter, a digit nor a space.
    private static func isSpecial(_ character: Character) -> Bool {
        character.isASCII && !character.isLetter && !character.isNumber && !character.isWhitespace
            && character.asciiValue.map { $0 >= 0x21 && $0 <= 0x7E } == true
    }
}
