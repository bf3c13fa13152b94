import FoundationEssentials
package import WebAuthn

/// Rewrites request and response bodies and headers for trace logs so that no secret reaches a
/// log handler (STYLE §5).
///
/// It walks the whole JSON tree, at every depth and inside arrays, and replaces the value of
/// every member whose name is secret with `"<redacted>"`, whatever its type. The secret names are
/// tokens (`access_token`, `refresh_token`, `id_token`, `token`, `mfa_token`, …), sessions
/// (`auth_session`), client secrets, challenges (`challenge`, and `clientDataJSON`, which carries
/// the challenge inside), passwords (and a new one), CAPTCHA answers, one-time codes, and an embedded login's `redirectUrl` (its
/// `request` is a one-time capability). A body that is not JSON is never logged, only its size.
///
/// Headers: `Authorization`, `DPoP` and cookies are replaced whole; a `Location` keeps its path
/// and loses its query and fragment, which carry codes, `state` and an embedded login's
/// authenticate URL.
package enum WireRedactor {
    /// Member names whose values are secret, compared case-insensitively.
    package static let secretMembers: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "mfa_token", "recovery_code",
        "auth_session", "client_secret", "client_assertion", "challenge", "clientdatajson",
        "password", "otp", "binding_code", "subject_token", "session_transfer_token", "code_verifier",
        "authorization", "dpop", "redirecturl", "new_password", "captcha",
    ]

    /// Header names whose values are secret.
    package static let secretHeaders: Set<String> = ["authorization", "dpop", "cookie", "set-cookie"]

    static let redacted = "<redacted>"

    /// The body as redacted compact JSON, or a size note when it is not JSON.
    package static func redact(body: [UInt8]) -> String {
        guard !body.isEmpty else { return "<empty>" }
        guard let tree = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
            return "<\(body.count) bytes, not JSON>"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let text = try? encoder.encode(redact(tree)) else { return "<\(body.count) bytes>" }
        return String(decoding: text, as: UTF8.self)
    }

    /// The tree with every secret member's value replaced.
    package static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [String: JSONValue] = [:]
            for (name, member) in members {
                result[name] = secretMembers.contains(name.lowercased()) ? .string(redacted) : redact(member)
            }
            return .object(result)
        case .array(let items):
            return .array(items.map(redact))
        case .null, .bool, .number, .string:
            return value
        }
    }

    /// Header fields as `Name: value` lines, secret values replaced, a `Location` cut before its
    /// query.
    package static func redact(headers: [(name: String, value: String)]) -> String {
        headers.map { name, value in
            let lowercased = name.lowercased()
            if secretHeaders.contains(lowercased) { return "\(name): \(redacted)" }
            if lowercased == "location", let cut = value.firstIndex(where: { $0 == "?" || $0 == "#" }) {
                return "\(name): \(value[..<cut])?\(redacted)"
            }
            return "\(name): \(value)"
        }.joined(separator: "; ")
    }
}
