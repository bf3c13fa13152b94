import FoundationEssentials
public import MCP
import PasskeyAuthenticator
public import WebAuthn

/// A tool call's arguments (``ControlMCPServer``), read as the CLI reads its options: a missing
/// or malformed one is a `SyntaxError` naming the member.
public struct ControlMCPArguments: Sendable {
    /// The arguments as the call gave them.
    public let values: [String: Value]

    /// Wraps a call's arguments.
    public init(_ values: [String: Value]) {
        self.values = values
    }

    /// The string `name`, if given.
    public func string(_ name: String) -> String? {
        values[name]?.stringValue
    }

    /// The number `name`, if given.
    public func number(_ name: String) -> Double? {
        values[name]?.doubleValue ?? values[name]?.intValue.map(Double.init)
    }

    /// The boolean `name`, if given.
    public func bool(_ name: String) -> Bool? {
        values[name]?.boolValue
    }

    /// The string `name`.
    ///
    /// - Throws: ``ControlError`` `SyntaxError` when it is missing.
    public func required(_ name: String) throws(ControlError) -> String {
        guard let value = string(name) else {
            throw ControlError("SyntaxError", status: 400, "\(name) is required")
        }
        return value
    }

    /// The bytes of the base64url string `name` (RFC 4648 §5).
    ///
    /// - Throws: ``ControlError`` `SyntaxError` when it is missing or not base64url.
    public func bytes(_ name: String) throws(ControlError) -> [UInt8] {
        do {
            return try Base64URL.decode(try required(name), ignoringPaddingBits: true)
        } catch let error as WebAuthnError {
            throw ControlError("SyntaxError", status: 400, "\(name): \(error.reason)")
        } catch {
            throw ControlError("SyntaxError", status: 400, "\(name): \(error)")
        }
    }

    /// The member `name` as `Type`, decoded as WebAuthn L3 JSON: an object, or a string holding
    /// its JSON.
    ///
    /// - Throws: ``ControlError`` `SyntaxError` when it is missing or does not decode.
    public func decode<Type: Decodable>(_ type: Type.Type, _ name: String) throws(ControlError) -> Type {
        guard let value = values[name] else {
            throw ControlError("SyntaxError", status: 400, "\(name) is required")
        }
        let bytes: [UInt8]
        if let text = value.stringValue {
            bytes = Array(text.utf8)
        } else {
            guard let encoded = try? JSONEncoder().encode(value) else {
                throw ControlError("SyntaxError", status: 400, "\(name) is not JSON")
            }
            bytes = Array(encoded)
        }
        do {
            return try WebAuthnJSON.decode(type, from: bytes)
        } catch {
            throw ControlError("SyntaxError", status: 400, "\(name): \(error.reason)")
        }
    }

    /// The caller's origin, `origin` (HTML "origin", WebAuthn L3 §5.1.3 step 7).
    ///
    /// - Throws: ``ControlError`` `SyntaxError` when it is missing, `SecurityError` when it is not
    ///   an origin a ceremony may run for.
    public func origin() throws(ControlError) -> WebOrigin {
        do {
            return try WebOrigin(try required("origin"))
        } catch let error as ControlError {
            throw error
        } catch {
            throw ControlError("SecurityError", status: 400, "origin: \(error)")
        }
    }

    /// A relying party of the RP ID `rpId` and the one origin `origin`, requiring user
    /// verification when `requireUserVerification` is true (WebAuthn L3 §7.1 step 17).
    ///
    /// - Throws: ``ControlError`` `SyntaxError` when `rpId` or `origin` is missing.
    public func relyingParty() throws(ControlError) -> RelyingParty {
        let rpID = try required("rpId")
        return RelyingParty(
            ids: [rpID], origins: [try required("origin")],
            requireUserVerification: bool("requireUserVerification") ?? false)
    }

    /// The passkey `user` (a user.name) or `credentialId` picks, the most recent without either.
    func choice() throws(ControlError) -> AccountChoice {
        if let user = string("user") { return .user(user) }
        if values["credentialId"] != nil { return .credential(try bytes("credentialId")) }
        return .mostRecent
    }
}
