/// The identifiers a database connection takes: for each of email, phone number and username,
/// whether signup requires it, offers it or refuses it, whether it identifies a user, and the
/// username's rules; and their precedence (the connection's `options.attributes` and
/// `options.precedence`, auth0-passkey-api.md §18).
///
/// ```json
/// {"precedence": ["email", "username", "phone_number"],
///  "attributes": {"email": {"identifier": {"active": true}, "signup": {"status": "required"}},
///                 "username": {"signup": {"status": "optional"}, "validation": {"min_length": 1, "max_length": 15}},
///                 "phone_number": {"identifier": {"active": false}, "signup": {"status": "inactive"}}}}
/// ```
///
/// The default keeps what the tenant always did: email required, phone number and username
/// optional, usernames of 1 to 128 characters, precedence email, phone number, username.
public struct ConnectionAttributes: Sendable, Hashable {
    /// The email attribute.
    public var email: IdentifierAttribute
    /// The phone number attribute (E.164, ITU-T E.164 §6).
    public var phoneNumber: IdentifierAttribute
    /// The username attribute.
    public var username: IdentifierAttribute
    /// Which identifier names a user first (the creation options' `user.name`); the ones not
    /// listed follow in the default order.
    public var precedence: [Identifier]

    /// Creates the attributes.
    ///
    /// - Parameters:
    ///   - email: the email attribute; required by default.
    ///   - phoneNumber: the phone number attribute; optional by default.
    ///   - username: the username attribute; optional, 1 to 128 characters by default.
    ///   - precedence: the order of identifiers; email, phone number, username by default.
    public init(
        email: IdentifierAttribute = IdentifierAttribute(signup: .required),
        phoneNumber: IdentifierAttribute = IdentifierAttribute(signup: .optional),
        username: IdentifierAttribute = IdentifierAttribute(signup: .optional, usernameLength: 1...128),
        precedence: [Identifier] = Identifier.allCases
    ) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.precedence = precedence
    }

    /// One of a connection's identifiers, by its `user_profile` key.
    public enum Identifier: String, Sendable, Hashable, Codable, CaseIterable {
        /// `email`.
        case email
        /// `phone_number`, E.164.
        case phoneNumber = "phone_number"
        /// `username`.
        case username
    }

    /// The attribute of `identifier`.
    public subscript(identifier: Identifier) -> IdentifierAttribute {
        get {
            switch identifier {
            case .email: email
            case .phoneNumber: phoneNumber
            case .username: username
            }
        }
        set {
            switch identifier {
            case .email: email = newValue
            case .phoneNumber: phoneNumber = newValue
            case .username: username = newValue
            }
        }
    }

    /// Every identifier, ``precedence`` first, then the others in the default order.
    var ordered: [Identifier] {
        precedence + Identifier.allCases.filter { !precedence.contains($0) }
    }

    /// The highest-precedence identifier `profile` carries: the creation options' `user.name`
    /// (auth0-passkey-api.md §18).
    func name(of profile: UserProfile) -> String? {
        ordered.lazy.compactMap { profile[$0] }.first
    }

    /// Checks a signup's identifiers against the attributes (auth0-passkey-api.md §18): no
    /// identifier of an `inactive` attribute, at least one, every `required` one, and a username
    /// within the connection's length.
    ///
    /// - Parameters:
    ///   - profile: the `user_profile`.
    ///   - connection: the connection's name, for the error.
    /// - Throws: `invalid_request`.
    func check(_ profile: UserProfile, connection: String) throws(TenantError) {
        for identifier in Identifier.allCases where profile[identifier] != nil && self[identifier].signup == .inactive {
            throw .invalidRequest("user_profile.\(identifier.rawValue) is not allowed")
        }
        guard Identifier.allCases.contains(where: { profile[$0] != nil }) else {
            throw .invalidRequest("user_profile: an email, phone_number or username is required")
        }
        for identifier in Identifier.allCases where profile[identifier] == nil && self[identifier].signup == .required {
            throw .invalidRequest("user_profile.\(identifier.rawValue) is required by connection \(connection)")
        }
        if let name = profile.username, let length = username.usernameLength, !length.contains(name.count) {
            throw .invalidRequest(
                "user_profile.username: \(length.lowerBound) to \(length.upperBound) characters for connection \(connection)"
            )
        }
    }
}

/// How a connection treats one identifier (auth0-passkey-api.md §18).
public struct IdentifierAttribute: Sendable, Hashable {
    /// Whether signup requires it, offers it, or refuses it.
    public var signup: SignupStatus
    /// Whether it identifies a user at login (`identifier.active`). A passkey login is
    /// discoverable, so this names what the login page asks for; it does not refuse a passkey.
    public var identifierActive: Bool
    /// The length a username must have (`validation.min_length`…`max_length`); username only.
    public var usernameLength: ClosedRange<Int>?

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - signup: the signup status.
    ///   - identifierActive: whether it identifies a user; by default, unless signup is `inactive`.
    ///   - usernameLength: the username's length rule; none (the tenant's 1 to 128) by default.
    public init(signup: SignupStatus, identifierActive: Bool? = nil, usernameLength: ClosedRange<Int>? = nil) {
        self.signup = signup
        self.identifierActive = identifierActive ?? (signup != .inactive)
        self.usernameLength = usernameLength
    }

    /// An attribute's `signup.status`.
    public enum SignupStatus: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every signup gives it.
        case required
        /// A signup may give it.
        case optional
        /// A signup may not give it ("Off" in the dashboard).
        case inactive
    }
}

extension UserProfile {
    /// The value of an identifier.
    subscript(identifier: ConnectionAttributes.Identifier) -> String? {
        switch identifier {
        case .email: email
        case .phoneNumber: phoneNumber
        case .username: username
        }
    }
}
