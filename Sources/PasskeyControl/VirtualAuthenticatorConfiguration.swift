public import PasskeyAuthenticator
public import WebAuthn

/// The W3C WebDriver "Authenticator Configuration" of a virtual authenticator (WebAuthn L3
/// §11.2), plus two keys of this server's own: `softpasskey:profile`, the built-in profile the
/// authenticator starts from (`platform`, `security-key`), `softpasskey:simulate`, a failure
/// every ceremony acts out (`Simulation`: `cancel`, `timeout`, `deny-uv`, `no-presence`,
/// `bogus-signature`, as the CLI's `--simulate`), and `softpasskey:store`, the directory
/// of a file store to keep its credentials in (in memory when absent).
///
/// ```
/// { "protocol": "ctap2" | "ctap2_1", "transport": "usb" | "nfc" | "ble" | "internal" | "hybrid",
///   "hasResidentKey": false, "hasUserVerification": false, "isUserConsenting": true,
///   "isUserVerified": false, "extensions": [], "defaultBackupEligibility": false,
///   "defaultBackupState": false, "softpasskey:profile": NAME, "softpasskey:simulate": FAILURE,
///   "softpasskey:store": DIR }
/// ```
///
/// Without a profile, `protocol` and `transport` are required and the others default as §11.2
/// says; with one, every key defaults to what the profile does.
public struct VirtualAuthenticatorConfiguration: Sendable, Hashable {
    /// `ctap2` or `ctap2_1`.
    public var ctapProtocol: String
    /// The transport simulated; `internal` is a platform authenticator.
    public var transport: AuthenticatorTransport
    /// Whether it stores discoverable credentials.
    public var hasResidentKey: Bool
    /// Whether it can verify the user.
    public var hasUserVerification: Bool
    /// Whether the user consents to every ceremony; when not, every one fails with `NotAllowedError`.
    public var isUserConsenting: Bool
    /// Whether user verification succeeds.
    public var isUserVerified: Bool
    /// The extensions it supports, by WebAuthn extension identifier: any of `prf` (or its CTAP
    /// form `hmac-secret`), `credBlob`, `credProtect`, `minPinLength` and `largeBlob`.
    public var extensions: [String]
    /// The BE flag of new credentials.
    public var defaultBackupEligibility: Bool
    /// The BS flag of new credentials.
    public var defaultBackupState: Bool
    /// The built-in profile it starts from, or `nil` for the W3C defaults.
    public var profile: String?
    /// The directory of its file store, or `nil` for an in-memory store.
    public var storeDirectory: String?
    /// The failure every ceremony acts out (`softpasskey:simulate`), or `nil`.
    public var simulated: Simulation?

    /// The extension identifiers a virtual authenticator here can support.
    public static let supportedExtensions: Set<String> = [
        "prf", "hmac-secret", "credBlob", "credProtect", "minPinLength", "largeBlob",
    ]

    /// The CTAP extensions each WebAuthn extension identifier of ``extensions`` runs on.
    static let ctapExtensions: [String: [String]] = [
        "prf": ["hmac-secret", "hmac-secret-mc"], "hmac-secret": ["hmac-secret", "hmac-secret-mc"],
        "credBlob": ["credBlob"], "credProtect": ["credProtect"], "minPinLength": ["minPinLength"],
        "largeBlob": ["largeBlobKey"],
    ]

    /// Reads a configuration as Add Virtual Authenticator's remote end steps do (WebAuthn L3
    /// §11.2): an unknown key, a value of the wrong type or outside the valid values, or a
    /// missing required key is `invalid argument`; an unsupported protocol or extension is
    /// `unsupported operation`.
    ///
    /// - Parameter parameters: the command's JSON object.
    /// - Throws: ``ControlError``.
    public init(parameters: [String: JSONValue]) throws(ControlError) {
        let profileName = try Self.string(parameters, "softpasskey:profile")
        let base: AuthenticatorProfile?
        if let profileName {
            guard let known = AuthenticatorProfile.builtIn[profileName] else {
                let names = AuthenticatorProfile.builtIn.keys.sorted().joined(separator: ", ")
                throw .invalidArgument("softpasskey:profile: no profile \(profileName) (\(names))")
            }
            base = known
        } else {
            base = nil
        }
        for key in parameters.keys where !Self.keys.contains(key) {
            throw .invalidArgument("\(key) is not a key of an authenticator configuration")
        }
        guard let ctapProtocol = try Self.string(parameters, "protocol") ?? base.map({ _ in "ctap2_1" }) else {
            throw .invalidArgument("protocol is required")
        }
        switch ctapProtocol {
        case "ctap2", "ctap2_1": break
        case "ctap1/u2f": throw .unsupported("protocol ctap1/u2f: only CTAP2 authenticators are simulated")
        default: throw .invalidArgument("protocol must be ctap1/u2f, ctap2 or ctap2_1, not \(ctapProtocol)")
        }
        self.ctapProtocol = ctapProtocol
        guard let transportName = try Self.string(parameters, "transport") ?? base?.transports.first?.rawValue else {
            throw .invalidArgument("transport is required")
        }
        guard ["usb", "nfc", "ble", "internal", "hybrid", "smart-card"].contains(transportName) else {
            throw .invalidArgument("transport must be an AuthenticatorTransport value, not \(transportName)")
        }
        transport = AuthenticatorTransport(rawValue: transportName)
        hasResidentKey = try Self.bool(parameters, "hasResidentKey") ?? (base != nil)
        hasUserVerification = try Self.bool(parameters, "hasUserVerification") ?? (base != nil)
        isUserConsenting = try Self.bool(parameters, "isUserConsenting") ?? true
        isUserVerified = try Self.bool(parameters, "isUserVerified") ?? (base != nil)
        defaultBackupEligibility =
            try Self.bool(parameters, "defaultBackupEligibility") ?? base?.backupEligible ?? false
        defaultBackupState = try Self.bool(parameters, "defaultBackupState") ?? base?.backupState ?? false
        if let given = parameters["extensions"] {
            guard case .array(let values) = given else {
                throw .invalidArgument("extensions must be an array of strings")
            }
            extensions = try values.map { (value) throws(ControlError) -> String in
                guard let name = value.stringValue else { throw .invalidArgument("extensions must be strings") }
                return name
            }
        } else {
            extensions =
                base.map { profile in
                    Self.supportedExtensions.subtracting(["hmac-secret"]).sorted().filter { name in
                        Self.ctapExtensions[name]!.allSatisfy(profile.supports)
                            || (name == "prf" && profile.supportsHMACSecret)
                    }
                } ?? []
        }
        for name in extensions where !Self.supportedExtensions.contains(name) {
            throw .unsupported(
                "extension \(name) is not supported (\(Self.supportedExtensions.sorted().joined(separator: ", ")))")
        }
        profile = profileName
        if let name = try Self.string(parameters, "softpasskey:simulate") {
            guard let simulation = Simulation(rawValue: name) else {
                let names = Simulation.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidArgument("softpasskey:simulate: no failure \(name) (\(names))")
            }
            simulated = simulation
        }
        storeDirectory = try Self.string(parameters, "softpasskey:store")
        if storeDirectory?.isEmpty == true {
            throw .invalidArgument("softpasskey:store is a directory path, not empty")
        }
    }

    /// The authenticator profile this configuration describes: the named built-in profile, or
    /// a CTAP 2.1 authenticator with a counter per credential and `none` attestation, with the
    /// configuration's transport, capabilities and backup flags.
    public var authenticatorProfile: AuthenticatorProfile {
        var result =
            profile.flatMap { AuthenticatorProfile.builtIn[$0] }
            ?? AuthenticatorProfile(
                name: "webdriver", aaguid: .zero, attachment: .crossPlatform, transports: [],
                algorithms: [.es256, .eddsa], alwaysDiscoverable: false, alwaysVerifiesUser: false,
                backedUp: false, countsSignatures: true, selfAttests: false)
        result.attachment = transport == .internal ? .platform : .crossPlatform
        result.transports = [transport]
        result.supportsResidentKeys = hasResidentKey
        result.supportsUserVerification = hasUserVerification
        result.alwaysVerifiesUser = result.alwaysVerifiesUser && hasUserVerification
        result.backupEligible = defaultBackupEligibility
        result.backupState = defaultBackupState
        result.extensions = Array(Set(extensions.flatMap { Self.ctapExtensions[$0] ?? [] })).sorted()
        return result
    }

    /// The failure every ceremony acts out: the user declines when not consenting, and
    /// verification fails when it is not to succeed; otherwise the one `softpasskey:simulate` names.
    public var simulation: Simulation? {
        if !isUserConsenting { return .cancel }
        if hasUserVerification && !isUserVerified { return .denyUV }
        return simulated
    }

    private static let keys: Set<String> = [
        "protocol", "transport", "hasResidentKey", "hasUserVerification", "isUserConsenting", "isUserVerified",
        "extensions", "defaultBackupEligibility", "defaultBackupState", "softpasskey:profile", "softpasskey:simulate",
        "softpasskey:store",
    ]

    static func string(_ parameters: [String: JSONValue], _ key: String) throws(ControlError) -> String? {
        guard let value = parameters[key] else { return nil }
        guard let string = value.stringValue else { throw .invalidArgument("\(key) must be a string") }
        return string
    }

    static func bool(_ parameters: [String: JSONValue], _ key: String) throws(ControlError) -> Bool? {
        guard let value = parameters[key] else { return nil }
        guard let bool = value.boolValue else { throw .invalidArgument("\(key) must be a boolean") }
        return bool
    }
}
