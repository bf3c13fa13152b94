import FoundationEssentials
import WebAuthn

/// The body of `PATCH /api/v2/users/{id}` (Auth0 Management API "Update a User"):
///
/// ```
/// { "user_metadata"?: {…} | null, "app_metadata"?: {…} | null,
///   "name"?, "nickname"?, "given_name"?, "family_name"?, "picture"?,
///   "email"?, "email_verified"?: bool, "phone_number"?, "username"?, "connection"? }
/// ```
///
/// Metadata merges as Auth0 merges it: each top-level member given replaces the stored one (a
/// nested object whole), a member set to `null` is removed, and `{}` (or `null`) clears it all.
/// A user's own token may send `user_metadata` only. The root attributes are the machine-to-
/// machine client's: an email is stored lower-case, and a changed email is unverified unless
/// `email_verified` says otherwise. **[local]** `blocked`, `password` and the other attributes
/// Auth0 takes are refused; `connection` is taken when it is the tenant's; a metadata object is at
/// most 16 KiB of JSON.
struct ManagedUserUpdate: Sendable {
    var userMetadata: JSONValue?
    var appMetadata: JSONValue?
    var profile: [UserProfile.CodingKeys: String] = [:]
    var emailVerified: Bool?

    /// Whether only `user_metadata` is set: all a user's own token may change.
    var isUserMetadataOnly: Bool { appMetadata == nil && profile.isEmpty && emailVerified == nil }

    /// Reads the body's members.
    ///
    /// - Parameters:
    ///   - members: the body.
    ///   - connection: the tenant's database connection.
    /// - Throws: `invalid_request` (rendered `invalid_body`, 400) for an unknown member, a value of
    ///   the wrong type, or another connection.
    init(_ members: [String: JSONValue], connection: String) throws(TenantError) {
        for (name, value) in members {
            switch name {
            case "user_metadata": userMetadata = try Self.metadata(value, name)
            case "app_metadata": appMetadata = try Self.metadata(value, name)
            case "email_verified":
                guard let flag = value.boolValue else { throw Self.invalid("\(name) must be a boolean") }
                emailVerified = flag
            case "connection":
                guard value.stringValue == connection else { throw Self.invalid("connection: no such connection") }
            default:
                guard let key = UserProfile.CodingKeys(rawValue: name) else {
                    throw Self.invalid("Additional properties not allowed: \(name.prefix(64))")
                }
                guard let text = value.stringValue else { throw Self.invalid("\(name) must be a string") }
                profile[key] = key == .email ? text.lowercased() : text
            }
        }
    }

    /// Applies the update to `user`.
    ///
    /// - Throws: `invalid_request` for an identifier out of form, an identifier of an upstream
    ///   connection's user, or metadata over the limit.
    func apply(to user: inout TenantUser) throws(TenantError) {
        if let userMetadata {
            user.metadata = try Self.merged(user.metadata, userMetadata, "user_metadata")
        }
        if let appMetadata {
            user.appMetadata = try Self.merged(user.appMetadata ?? [:], appMetadata, "app_metadata")
        }
        var changed = user.profile
        for (key, value) in profile {
            switch key {
            case .email: changed.email = value
            case .phoneNumber: changed.phoneNumber = value
            case .username: changed.username = value
            case .name: changed.name = value
            case .givenName: changed.givenName = value
            case .familyName: changed.familyName = value
            case .nickname: changed.nickname = value
            case .picture: changed.picture = value
            }
        }
        try changed.validate()
        let identifiers = [profile[.email], profile[.phoneNumber], profile[.username]]
        if user.identity != nil, identifiers.contains(where: { $0 != nil }) {
            throw Self.invalid("the identifiers of an upstream connection's user are the upstream's")
        }
        if changed.email != user.profile.email { user.emailVerified = nil }
        if let emailVerified { user.emailVerified = emailVerified ? true : nil }
        user.profile = changed
    }

    /// `current` with `patch` merged one level deep.
    static func merged(_ current: [String: JSONValue], _ patch: JSONValue, _ name: String) throws(TenantError)
        -> [String: JSONValue]
    {
        guard let members = patch.objectValue, !members.isEmpty else { return [:] }
        var result = current
        for (key, value) in members {
            result[key] = value == .null ? nil : value
        }
        guard WebAuthnJSON.encode(result).count <= 16 * 1024 else {
            throw invalid("\(name) is larger than 16 KiB")
        }
        return result
    }

    private static func metadata(_ value: JSONValue, _ name: String) throws(TenantError) -> JSONValue {
        guard value == .null || value.objectValue != nil else { throw invalid("\(name) must be an object") }
        return value
    }

    private static func invalid(_ detail: String) -> TenantError {
        .invalidRequest("Payload validation error: \(detail).")
    }
}
