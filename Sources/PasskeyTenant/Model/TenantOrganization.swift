import WebAuthn

/// An organization of the tenant: who may log in through it and whether its database connection
/// takes signups (auth0-passkey-api.md §17).
///
/// A login or signup that names an organization, by its ID or its name, gets tokens carrying
/// `org_id` and `org_name`. Members are the ones listed here (emails or user IDs) and the users the
/// tenant made members at signup or login, which it keeps in its database.
public struct TenantOrganization: Sendable, Hashable, Codable {
    /// `org_` and 16 letters and digits, as Auth0's organization IDs.
    public var id: String
    /// The organization's name: lower case, what `org_name` carries and `organization` may name.
    public var name: String
    /// The name shown to people, if any (Auth0's `display_name`).
    public var displayName: String?
    /// Members given in the configuration: emails (matched without regard to case) or user IDs.
    public var members: [String]
    /// Whether a user who is not a member becomes one by logging in (the organization
    /// connection's `assign_membership_on_login`); otherwise the login is refused.
    public var assignMembershipOnLogin: Bool
    /// Whether users may sign up into the organization, becoming members (the organization
    /// connection's `is_signup_enabled`).
    public var signupEnabled: Bool

    /// Creates an organization.
    ///
    /// - Parameters:
    ///   - name: the name; kept lower-cased, as Auth0 keeps organization names.
    ///   - id: the ID; by default ``derivedID(name:)``, the same for the same name on every start.
    ///   - displayName: the name shown to people.
    ///   - members: emails or user IDs of members.
    ///   - assignMembershipOnLogin: whether a login makes a non-member a member; Auth0's default is no.
    ///   - signupEnabled: whether signup into the organization is allowed; Auth0's default is no.
    public init(
        name: String, id: String? = nil, displayName: String? = nil, members: [String] = [],
        assignMembershipOnLogin: Bool = false, signupEnabled: Bool = false
    ) {
        self.name = name.lowercased()
        self.id = id ?? Self.derivedID(name: name)
        self.displayName = displayName
        self.members = members
        self.assignMembershipOnLogin = assignMembershipOnLogin
        self.signupEnabled = signupEnabled
    }

    /// The ID of an organization named `name`: `org_` and 16 letters and digits taken from the
    /// SHA-256 of the lower-cased name, so that a tenant restarted with the same configuration keeps
    /// its organizations' IDs, and the tokens and memberships that name them. **[local]**
    ///
    /// - Parameter name: the organization's name.
    /// - Returns: the ID.
    public static func derivedID(name: String) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        let digest = SHA256Digest.hash(Array(("organization:" + name.lowercased()).utf8))
        return "org_" + String(digest.prefix(16).map { alphabet[Int($0) % alphabet.count] })
    }

    /// Whether `organization`, as a request gives it, names this organization: its ID, or its name
    /// in any case (Auth0 accepts both on `/authorize`, auth0-passkey-api.md §14.1).
    func isNamed(_ organization: String) -> Bool {
        organization == id || organization.lowercased() == name
    }

    /// Whether the configuration lists `user` as a member, by user ID or email.
    func lists(_ user: TenantUser) -> Bool {
        members.contains { member in
            member == user.id || (user.profile.email.map { member.lowercased() == $0.lowercased() } ?? false)
        }
    }

    /// Auth0's key names, as in a tenant configuration file.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, members
        case displayName = "display_name"
        case assignMembershipOnLogin = "assign_membership_on_login"
        case signupEnabled = "is_signup_enabled"
    }

    /// Decodes an organization as a configuration file gives it: `name` required, the rest
    /// optional with Auth0's defaults; any other key refused.
    ///
    /// - Throws: `DecodingError` naming the key.
    public init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(in: decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .name)
        guard Self.isValidName(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container,
                debugDescription: "1 to 50 lower-case letters, digits, - or _, starting with a letter or digit")
        }
        let id = try container.decodeIfPresent(String.self, forKey: .id)
        if let id, !Self.isValidID(id) {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "org_ followed by letters and digits")
        }
        self.init(
            name: name, id: id, displayName: try container.decodeIfPresent(String.self, forKey: .displayName),
            members: try container.decodeIfPresent([String].self, forKey: .members) ?? [],
            assignMembershipOnLogin: try container.decodeIfPresent(Bool.self, forKey: .assignMembershipOnLogin)
                ?? false,
            signupEnabled: try container.decodeIfPresent(Bool.self, forKey: .signupEnabled) ?? false)
    }

    /// Whether `name` is an organization name Auth0 accepts: 1 to 50 lower-case ASCII letters,
    /// digits, `-` and `_`, starting with a letter or digit.
    ///
    /// - Parameter name: the name, as given.
    /// - Returns: whether it is one.
    public static func isValidName(_ name: String) -> Bool {
        let characters = Array(name)
        return (1...50).contains(characters.count)
            && characters.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }
            && characters[0] != "-" && characters[0] != "_"
    }

    /// Whether `id` has the form of an organization ID: `org_` and 1 to 32 ASCII letters and digits.
    static func isValidID(_ id: String) -> Bool {
        let tail = id.dropFirst(4)
        return id.hasPrefix("org_") && (1...32).contains(tail.count)
            && tail.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}

/// Whether an application lets users log in as individuals, as members of an organization, or
/// both (the application's `organization_usage`, auth0-passkey-api.md §17).
public enum OrganizationUsage: String, Sendable, Hashable, Codable, CaseIterable {
    /// Individuals only: a request naming an organization is refused. Auth0's default.
    case deny
    /// Individuals and members of organizations.
    case allow
    /// Members of organizations only: a request without an organization is refused.
    case require
}

/// What Auth0's Universal Login does when an organization is required and none was given (the
/// application's `organization_require_behavior`, auth0-passkey-api.md §17). **[local]** Native
/// passkey calls and the local login page treat every value as ``noPrompt``: the application sends
/// the organization.
public enum OrganizationRequireBehavior: String, Sendable, Hashable, Codable, CaseIterable {
    /// The application sends `organization`. Auth0's default.
    case noPrompt = "no_prompt"
    /// Universal Login asks for the organization first.
    case preLoginPrompt = "pre_login_prompt"
    /// Universal Login asks for the organization after the credentials.
    case postLoginPrompt = "post_login_prompt"
}
