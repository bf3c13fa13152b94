import ArgumentParser
import Foundation
import PasskeyTenant

/// `tenant serve`'s organizations and identifiers (auth0-passkey-api.md §17, §18): a configuration
/// file in Auth0's key names, and flags that override it.
struct TenantOrganizationOptions: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: """
            A JSON tenant configuration file: organizations, organization_usage, password_policy, bot_detection, \
            organization_require_behavior, the connection's attributes and precedence, in Auth0's key \
            names. The flags below override it.
            """)
    var configFile: String?

    @Option(
        name: .customLong("organization"),
        help: """
            An organization by name (repeatable), with signup into it enabled; its ID is derived from \
            the name, the same on every start. Without --organization-usage, usage becomes allow.
            """)
    var organizations: [String] = []

    @Option(
        name: .customLong("member"),
        help: "A member of an organization, NAME=EMAIL or NAME=USER_ID (repeatable).")
    var members: [String] = []

    @Option(
        name: .customLong("organization-usage"),
        help: "Whether the application takes individuals (deny), both (allow), or members only (require).")
    var organizationUsage: OrganizationUsage?

    @Option(
        name: .customLong("identifier"),
        help: """
            A signup identifier's status, NAME=required|optional|off with NAME email, phone_number or \
            username (repeatable). Default: email required, the others optional.
            """)
    var identifiers: [String] = []

    func validate() throws {
        for organization in organizations where !TenantOrganization.isValidName(organization.lowercased()) {
            throw ValidationError("--organization \(organization): 1 to 50 letters, digits, - or _.")
        }
        for member in members where Self.split(member) == nil {
            throw ValidationError("--member \(member): give NAME=EMAIL.")
        }
        for identifier in identifiers where Self.identifierStatus(identifier) == nil {
            throw ValidationError(
                "--identifier \(identifier): give email, phone_number or username = required, optional or off.")
        }
    }

    /// Applies the file, then the flags, to `configuration`.
    ///
    /// - Parameter read: reads the configuration file's bytes.
    /// - Throws: `ValidationError` for an unreadable or malformed file (naming the key) or a
    ///   `--member` of an organization that is not configured.
    func apply(to configuration: inout TenantConfiguration, read: (String) throws -> [UInt8] = Self.readFile) throws {
        if let configFile {
            let bytes: [UInt8]
            do {
                bytes = try read(configFile)
            } catch {
                throw ValidationError("--config \(configFile): cannot read the file.")
            }
            do {
                try configuration.apply(configurationFile: bytes)
            } catch {
                throw ValidationError("--config \(configFile): \(error.detail)")
            }
        }
        for name in organizations where configuration.organizations.allSatisfy({ $0.name != name.lowercased() }) {
            configuration.organizations.append(TenantOrganization(name: name, signupEnabled: true))
        }
        if let organizationUsage {
            configuration.organizationUsage = organizationUsage
        } else if !organizations.isEmpty, configuration.organizationUsage == .deny {
            configuration.organizationUsage = .allow
        }
        for member in members {
            guard let (name, user) = Self.split(member),
                let index = configuration.organizations.firstIndex(where: { $0.isNamedByUser(name) })
            else {
                throw ValidationError("--member \(member): no organization of that name; add --organization.")
            }
            configuration.organizations[index].members.append(user)
        }
        for identifier in identifiers {
            guard let (name, status) = Self.identifierStatus(identifier) else { continue }
            configuration.identifiers[name] = IdentifierAttribute(
                signup: status, usernameLength: configuration.identifiers[name].usernameLength)
        }
    }

    /// Reads a file's bytes.
    static func readFile(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `NAME=VALUE`, both non-empty.
    private static func split(_ text: String) -> (String, String)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1])
    }

    /// `NAME=required|optional|off`.
    private static func identifierStatus(
        _ text: String
    ) -> (ConnectionAttributes.Identifier, IdentifierAttribute.SignupStatus)? {
        guard let (name, value) = split(text),
            let identifier = ConnectionAttributes.Identifier(rawValue: name == "phone" ? "phone_number" : name),
            let status = value == "off" ? .inactive : IdentifierAttribute.SignupStatus(rawValue: value)
        else { return nil }
        return (identifier, status)
    }
}

extension TenantOrganization {
    /// Whether `name`, as a user types it, is this organization's name or ID.
    fileprivate func isNamedByUser(_ name: String) -> Bool {
        name == id || name.lowercased() == self.name
    }
}
