/// The signup `user_profile` object (auth0-passkey-api.md §1.1): identifiers and profile claims.
///
/// Auth0 fails a profile with any other property with `invalid_request`, so decoding does too.
public struct UserProfile: Sendable, Hashable, Codable {
    public var email: String?
    public var phoneNumber: String?
    public var username: String?
    public var name: String?
    public var givenName: String?
    public var familyName: String?
    public var nickname: String?
    public var picture: String?

    /// Creates a profile.
    public init(
        email: String? = nil, phoneNumber: String? = nil, username: String? = nil, name: String? = nil,
        givenName: String? = nil, familyName: String? = nil, nickname: String? = nil, picture: String? = nil
    ) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.name = name
        self.givenName = givenName
        self.familyName = familyName
        self.nickname = nickname
        self.picture = picture
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email
        case phoneNumber = "phone_number"
        case username, name
        case givenName = "given_name"
        case familyName = "family_name"
        case nickname, picture
    }

    /// Decodes a profile, refusing properties Auth0 does not define.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first unknown property.
    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: all.codingPath + [unknown], debugDescription: "not a user_profile property"))
        }
        try self.init(container: decoder.container(keyedBy: CodingKeys.self))
    }

    /// Reads a profile's members from an object that may hold others (the Management API's
    /// `POST /users` body, auth0-passkey-api.md §15.2).
    init(container: KeyedDecodingContainer<CodingKeys>) throws {
        email = try container.decodeIfPresent(String.self, forKey: .email)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        username = try container.decodeIfPresent(String.self, forKey: .username)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        givenName = try container.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try container.decodeIfPresent(String.self, forKey: .familyName)
        nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
        picture = try container.decodeIfPresent(String.self, forKey: .picture)
    }

    /// Checks the identifiers' form: an email with one `@` and a dot in its domain, an E.164 phone
    /// number, a username of 1–128 letters, digits and `_.-+@`; every value at most 256 characters.
    ///
    /// - Throws: `invalid_request` naming the property.
    func validate() throws(TenantError) {
        if let email {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
                !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
            else {
                throw .invalidRequest("user_profile.email: not an email address")
            }
        }
        if let phoneNumber {
            let digits = phoneNumber.dropFirst()
            guard phoneNumber.hasPrefix("+"), (7...15).contains(digits.count), digits.first != "0",
                digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
            else {
                throw .invalidRequest("user_profile.phone_number: not an E.164 number (+ and 7 to 15 digits)")
            }
        }
        if let username {
            guard (1...128).contains(username.count),
                username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-+@".contains($0)) })
            else {
                throw .invalidRequest("user_profile.username: 1 to 128 letters, digits or _.-+@")
            }
        }
        for key in CodingKeys.allCases {
            if let value = value(of: key), value.count > 256 {
                throw .invalidRequest("user_profile.\(key.rawValue): longer than 256 characters")
            }
        }
    }

    private func value(of key: CodingKeys) -> String? {
        switch key {
        case .email: email
        case .phoneNumber: phoneNumber
        case .username: username
        case .name: name
        case .givenName: givenName
        case .familyName: familyName
        case .nickname: nickname
        case .picture: picture
        }
    }
}

/// A coding key for any member name, to list an object's members.
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
