import FoundationEssentials

extension TenantConfiguration {
    /// Applies a tenant configuration file: organizations, the application's organization usage and
    /// require behaviour, the connection's identifier attributes and precedence, and more
    /// applications (`clients`, ``TenantApplication``), in Auth0's own key names
    /// (auth0-passkey-api.md §17, §18). What the file does not name keeps its value.
    ///
    /// ```json
    /// {"organizations": [{"name": "acme", "display_name": "Acme", "members": ["ada@example.com"],
    ///                     "assign_membership_on_login": false, "is_signup_enabled": true}],
    ///  "organization_usage": "allow", "organization_require_behavior": "no_prompt",
    ///  "precedence": ["username", "email", "phone_number"],
    ///  "attributes": {"email": {"signup": {"status": "optional"}},
    ///                 "username": {"identifier": {"active": true}, "signup": {"status": "required"},
    ///                              "validation": {"min_length": 3, "max_length": 15}},
    ///                 "phone_number": {"signup": {"status": "inactive"}}},
    ///  "clients": [{"name": "web", "app_type": "regular_web", "callbacks": ["http://127.0.0.1:3000/callback"],
    ///               "token_endpoint_auth_method": "client_secret_basic"}],
    ///  "trusted_proxies": ["127.0.0.1", "10.0.0.0/8"],
    ///  "connections": [{"name": "passkey-idp", "strategy": "oidc",
    ///                   "options": {"issuer": "https://idp.example.com/", "client_id": "abc",
    ///                               "client_secret_env": "IDP_SECRET", "scope": "openid profile email"}}]}
    /// ```
    ///
    /// `connections` are upstream OpenID Connect connections (``UpstreamConnection``).
    ///
    /// `password_policy` (`none`, `low`, `fair`, `good`, `excellent`, Auth0's connection option),
    /// `bot_detection` (`off`, `always`) and `captcha_answer` (**[local]**, the test-mode answer) set
    /// ``databaseConnection`` (``DatabaseConnectionOptions``).
    /// **[local]** `session_transfer_lifetime` (seconds, ``sessionTransferLifetime``) is the local
    /// tenant's own key: Auth0 fixes the session transfer token's lifetime.
    ///
    /// **[local]** `trusted_proxies` (``TrustedProxy``) is the local tenant's own key: Auth0 has no
    /// proxies in front of it to configure. Auth0's attribute keys the local tenant does not act on (`profile_required`, `unique`,
    /// `verification_method`, `signup.verification`, `validation.allowed_types`) are accepted and
    /// ignored; any other key is refused.
    ///
    /// - Parameter bytes: the file's JSON.
    /// - Throws: `invalid_configuration` naming the key path of the first key that is unknown, of
    ///   the wrong type or out of range, or saying the file is not JSON.
    public mutating func apply(configurationFile bytes: [UInt8]) throws(TenantError) {
        let file: ConfigurationFile
        do {
            file = try JSONDecoder().decode(ConfigurationFile.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw Self.configurationError(error)
        } catch {
            throw TenantError(.invalidConfiguration, "not a JSON configuration file")
        }
        if let organizations = file.organizations {
            let names = organizations.map(\.name)
            if let repeated = names.enumerated().first(where: { names.firstIndex(of: $0.element) != $0.offset }) {
                throw TenantError(
                    .invalidConfiguration, "organizations[\(repeated.offset)].name: \(repeated.element) is given twice")
            }
            self.organizations = organizations
        }
        if let usage = file.organizationUsage { organizationUsage = usage }
        if let behavior = file.organizationRequireBehavior { organizationRequireBehavior = behavior }
        if let precedence = file.precedence { identifiers.precedence = precedence }
        for (identifier, attribute) in file.attributes?.values ?? [:] {
            attribute.apply(to: &identifiers[identifier])
        }
        if let clients = file.clients {
            try TenantApplication.validate(clients, at: "clients")
            applications = clients
        }
        if let connections = file.connections {
            try UpstreamConnection.validate(connections, databaseConnection: connection)
            self.connections = connections
        }
        if let policy = file.passwordPolicy { databaseConnection.passwordPolicy = policy }
        if let botDetection = file.botDetection { databaseConnection.botDetection = botDetection }
        if let answer = file.captchaAnswer { databaseConnection.captchaAnswer = Secret(answer) }
        if let seconds = file.sessionTransferLifetime { sessionTransferLifetime = .seconds(seconds) }
        if let proxies = file.trustedProxies {
            trustedProxies = []
            for (index, text) in proxies.enumerated() {
                do {
                    trustedProxies.append(try TrustedProxy(text))
                } catch {
                    throw TenantError(.invalidConfiguration, "trusted_proxies[\(index)]: \(error.detail)")
                }
            }
        }
        try file.outbox?.apply(to: &outbox)
    }

    /// A decoding failure as the key path it happened at and why, after `prefix` when given.
    static func configurationError(_ error: DecodingError, in prefix: String? = nil) -> TenantError {
        let (path, why): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "missing")
            case .typeMismatch(let type, let context): (context.codingPath, "not a \(type)")
            case .valueNotFound(let type, let context): (context.codingPath, "null where a \(type) is expected")
            case .dataCorrupted(let context):
                (context.codingPath, context.codingPath.isEmpty ? "not JSON" : context.debugDescription)
            @unknown default: ([], "malformed")
            }
        let key = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let name = key.hasPrefix(".") ? String(key.dropFirst()) : key
        let place = prefix.map { name.isEmpty ? $0 : "\($0) \(name)" } ?? (name.isEmpty ? "configuration file" : name)
        return TenantError(.invalidConfiguration, "\(place): \(why)")
    }
}

/// A tenant configuration file's top level, Auth0's key names.
private struct ConfigurationFile: Decodable {
    var organizations: [TenantOrganization]?
    var organizationUsage: OrganizationUsage?
    var organizationRequireBehavior: OrganizationRequireBehavior?
    var precedence: [ConnectionAttributes.Identifier]?
    var attributes: AttributesFile?
    var clients: [TenantApplication]?
    var trustedProxies: [String]?
    var connections: [UpstreamConnection]?
    var outbox: OutboxFileSettings?
    var passwordPolicy: PasswordPolicy?
    var botDetection: DatabaseConnectionOptions.BotDetection?
    var captchaAnswer: String?
    var sessionTransferLifetime: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case organizations, precedence, attributes, clients, connections
        case trustedProxies = "trusted_proxies"
        case organizationUsage = "organization_usage"
        case organizationRequireBehavior = "organization_require_behavior"
        case passwordPolicy = "password_policy"
        case botDetection = "bot_detection"
        case captchaAnswer = "captcha_answer"
        case sessionTransferLifetime = "session_transfer_lifetime"
    }

    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(
            in: decoder,
            allowed: CodingKeys.allCases.map(\.rawValue) + OutboxFileSettings.CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        organizations = try container.decodeIfPresent([TenantOrganization].self, forKey: .organizations)
        organizationUsage = try container.decodeIfPresent(OrganizationUsage.self, forKey: .organizationUsage)
        organizationRequireBehavior = try container.decodeIfPresent(
            OrganizationRequireBehavior.self, forKey: .organizationRequireBehavior)
        precedence = try container.decodeIfPresent([ConnectionAttributes.Identifier].self, forKey: .precedence)
        attributes = try container.decodeIfPresent(AttributesFile.self, forKey: .attributes)
        clients = try container.decodeIfPresent([TenantApplication].self, forKey: .clients)
        trustedProxies = try container.decodeIfPresent([String].self, forKey: .trustedProxies)
        connections = try container.decodeIfPresent([UpstreamConnection].self, forKey: .connections)
        outbox = try OutboxFileSettings(from: decoder)
        passwordPolicy = try container.decodeIfPresent(PasswordPolicy.self, forKey: .passwordPolicy)
        botDetection = try container.decodeIfPresent(DatabaseConnectionOptions.BotDetection.self, forKey: .botDetection)
        captchaAnswer = try container.decodeIfPresent(String.self, forKey: .captchaAnswer)
        sessionTransferLifetime = try container.decodeIfPresent(Int.self, forKey: .sessionTransferLifetime)
        if let seconds = sessionTransferLifetime, seconds < 1 {
            throw DecodingError.dataCorruptedError(
                forKey: .sessionTransferLifetime, in: container, debugDescription: "a number of seconds, 1 or more")
        }
    }
}

/// `attributes`: an object keyed by `email`, `phone_number`, `username`.
private struct AttributesFile: Decodable {
    var values: [ConnectionAttributes.Identifier: AttributeFile] = [:]

    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(in: decoder, allowed: ConnectionAttributes.Identifier.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: AnyKey.self)
        for identifier in ConnectionAttributes.Identifier.allCases {
            values[identifier] = try container.decodeIfPresent(
                AttributeFile.self, forKey: AnyKey(stringValue: identifier.rawValue))
        }
    }
}

/// One attribute: `identifier.active`, `signup.status`, `validation.min_length`/`max_length`.
private struct AttributeFile: Decodable {
    var active: Bool?
    var status: IdentifierAttribute.SignupStatus?
    var length: ClosedRange<Int>?

    private struct Identifier: Decodable {
        var active: Bool?

        init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknown(in: decoder, allowed: ["active"])
            active = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(
                Bool.self, forKey: AnyKey(stringValue: "active"))
        }
    }

    private struct Signup: Decodable {
        var status: IdentifierAttribute.SignupStatus?

        init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknown(in: decoder, allowed: ["status", "verification"])
            status = try decoder.container(keyedBy: AnyKey.self).decodeIfPresent(
                IdentifierAttribute.SignupStatus.self, forKey: AnyKey(stringValue: "status"))
        }
    }

    private struct Validation: Decodable {
        var length: ClosedRange<Int>?

        init(from decoder: any Decoder) throws {
            try AnyKey.refuseUnknown(in: decoder, allowed: ["min_length", "max_length", "allowed_types"])
            let container = try decoder.container(keyedBy: AnyKey.self)
            let minimum = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "min_length")) ?? 1
            let maximum = try container.decodeIfPresent(Int.self, forKey: AnyKey(stringValue: "max_length")) ?? 15
            guard (1...128).contains(minimum), (minimum...128).contains(maximum) else {
                throw DecodingError.dataCorruptedError(
                    forKey: AnyKey(stringValue: "max_length"), in: container,
                    debugDescription: "min_length and max_length must satisfy 1 ≤ min ≤ max ≤ 128")
            }
            length = minimum...maximum
        }
    }

    init(from decoder: any Decoder) throws {
        try AnyKey.refuseUnknown(
            in: decoder,
            allowed: ["identifier", "signup", "validation", "profile_required", "unique", "verification_method"])
        let container = try decoder.container(keyedBy: AnyKey.self)
        active = try container.decodeIfPresent(Identifier.self, forKey: AnyKey(stringValue: "identifier"))?.active
        status = try container.decodeIfPresent(Signup.self, forKey: AnyKey(stringValue: "signup"))?.status
        length = try container.decodeIfPresent(Validation.self, forKey: AnyKey(stringValue: "validation"))?.length
    }

    /// Changes what the file names.
    func apply(to attribute: inout IdentifierAttribute) {
        if let status {
            attribute.signup = status
            if active == nil { attribute.identifierActive = status != .inactive }
        }
        if let active { attribute.identifierActive = active }
        if let length { attribute.usernameLength = length }
    }
}

extension AnyKey {
    /// Refuses an object with a member not in `allowed`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose coding path ends with the first unknown member.
    static func refuseUnknown(in decoder: any Decoder, allowed: [String]) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: all.codingPath + [unknown], debugDescription: "unknown key"))
        }
    }
}
