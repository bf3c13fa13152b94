import Foundation
import MCP
import PasskeyAuthenticator
import PasskeyControl
import WebAuthn

extension PasskeyMCP {
    /// A tool call's arguments, read as the CLI reads its options: a malformed one is a
    /// `SyntaxError` naming the member.
    struct Arguments {
        let values: [String: Value]

        init(_ values: [String: Value]) throws(ControlError) {
            self.values = values
        }

        func string(_ name: String) -> String? {
            values[name]?.stringValue
        }

        func number(_ name: String) -> Double? {
            values[name]?.doubleValue ?? values[name]?.intValue.map(Double.init)
        }

        func bool(_ name: String) -> Bool? {
            values[name]?.boolValue
        }

        func required(_ name: String) throws(ControlError) -> String {
            guard let value = string(name) else {
                throw ControlError("SyntaxError", status: 400, "\(name) is required")
            }
            return value
        }

        func bytes(_ name: String) throws(ControlError) -> [UInt8] {
            do {
                return try Base64URL.decode(try required(name), ignoringPaddingBits: true)
            } catch let error as WebAuthnError {
                throw ControlError("SyntaxError", status: 400, "\(name): \(error.reason)")
            } catch {
                throw ControlError("SyntaxError", status: 400, "\(name): \(error)")
            }
        }

        /// The member `name` as `Type`: an object, or a string holding its JSON.
        func decode<Type: Decodable>(_ type: Type.Type, _ name: String) throws(ControlError) -> Type {
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

        func origin() throws(ControlError) -> WebOrigin {
            do {
                return try WebOrigin(try required("origin"))
            } catch let error as ControlError {
                throw error
            } catch {
                throw ControlError("SecurityError", status: 400, "origin: \(error)")
            }
        }

        func choice() throws(ControlError) -> AccountChoice {
            if let user = string("user") { return .user(user) }
            if values["credentialId"] != nil { return .credential(try bytes("credentialId")) }
            return .mostRecent
        }

        func relyingParty() throws(ControlError) -> RelyingParty {
            let rpID = try required("rpId")
            return RelyingParty(
                ids: [rpID], origins: [try required("origin")],
                requireUserVerification: bool("requireUserVerification") ?? false)
        }
    }
}
