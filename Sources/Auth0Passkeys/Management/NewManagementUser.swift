/// The body of `POST /api/v2/users` (spec §15.2): the connection, and the identifiers the
/// connection's attributes ask for (§18).
///
/// ```json
/// {"connection":"Username-Password-Authentication","email":"ada@example.com","email_verified":true}
/// ```
///
/// No password: a passkey user is created without one when the connection has passkeys enabled
/// (spec §15.2, **[local]**); `nil` members are left out.
public struct NewManagementUser: Sendable, Hashable, Encodable {
    /// `connection`: the database connection's name; the only member Auth0 requires.
    public var connection: String
    /// `email`.
    public var email: String?
    /// `email_verified`.
    public var emailVerified: Bool?
    /// `name`: the full name.
    public var name: String?
    /// `phone_number`, in E.164.
    public var phoneNumber: String?
    /// `username`.
    public var username: String?

    /// Creates the body of a new user.
    ///
    /// - Parameters:
    ///   - connection: the database connection.
    ///   - email: the email.
    ///   - emailVerified: whether the email counts as verified; seeded test users usually are.
    ///   - name: the full name.
    ///   - phoneNumber: the phone number, E.164.
    ///   - username: the username.
    public init(
        connection: String, email: String? = nil, emailVerified: Bool? = nil, name: String? = nil,
        phoneNumber: String? = nil, username: String? = nil
    ) {
        self.connection = connection
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.phoneNumber = phoneNumber
        self.username = username
    }

    enum CodingKeys: String, CodingKey {
        case connection, email, name, username
        case emailVerified = "email_verified"
        case phoneNumber = "phone_number"
    }
}
