import CBuildInfo
import FoundationEssentials
import WebAuthn

/// The `Auth0-Client` header: who is calling, so a tenant's logs can tell clients apart (spec §8).
///
/// The value is unpadded base64url of a compact JSON object:
///
/// ```
/// {"name":"Auth0Passkeys","version":"0.1.0","env":{"swift":"6.x","linux":"6.1","core":"2.12.0"}}
/// ```
///
/// `core` names the Auth0.swift release whose wire behaviour this library follows, as a wrapper
/// of the SDK would. Pass `nil` where a client takes one to send no header (the SDK's "telemetry
/// disabled").
public struct Auth0ClientInfo: Sendable, Hashable {
    /// This library's version: SoftPasskey's, the one line of its `VERSION` file.
    public static let libraryVersion = String(cString: softpasskey_version())
    /// The Auth0.swift release whose wire behaviour this library mirrors.
    public static let coreVersion = "2.12.0"

    /// The client's name.
    public var name: String
    /// The client's version.
    public var version: String
    /// Environment entries: `swift`, the OS name and version, `core`.
    public var environment: [String: String]

    /// Creates client information.
    ///
    /// - Parameters:
    ///   - name: the client's name; this library's by default.
    ///   - version: the client's version.
    ///   - environment: environment entries; by default `swift`, `linux` (the kernel's
    ///     `major.minor`) and `core`.
    public init(
        name: String = "Auth0Passkeys",
        version: String = Auth0ClientInfo.libraryVersion,
        environment: [String: String] = Auth0ClientInfo.defaultEnvironment
    ) {
        self.name = name
        self.version = version
        self.environment = environment
    }

    /// `swift: 6.x`, the OS and its `major.minor` version, and `core`.
    public static var defaultEnvironment: [String: String] {
        let os = ProcessInfo.processInfo.operatingSystemVersion
        #if os(Linux)
            let osName = "linux"
        #else
            let osName = "unknown"
        #endif
        return ["swift": "6.x", osName: "\(os.majorVersion).\(os.minorVersion)", "core": coreVersion]
    }

    /// The header value: unpadded base64url of the compact JSON object, keys sorted.
    public var headerValue: String {
        struct Body: Encodable {
            let name: String
            let version: String
            let env: [String: String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A struct of strings always encodes.
        let json = (try? encoder.encode(Body(name: name, version: version, env: environment))) ?? Data()
        return Base64URL.encode(json)
    }
}
