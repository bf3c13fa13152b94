import FoundationEssentials
import WebAuthn

/// How a server asks for a nonce in the proof (spec §16.3): the token endpoint answers 400 with
/// `{"error":"use_dpop_nonce"}` (RFC 9449 §8), a resource server 401 with
/// `WWW-Authenticate: DPoP error="use_dpop_nonce"` (§9); both send the nonce in `DPoP-Nonce`.
package enum DPoPChallenge {
    /// The error code of both answers.
    static let useDPoPNonce = "use_dpop_nonce"

    /// Whether `response` asks for a proof with a nonce.
    package static func requiresNonce(_ response: HTTPResponse) -> Bool {
        guard !response.isSuccess else { return false }
        return errorCode(ofChallenge: response.header("WWW-Authenticate")) == useDPoPNonce
            || errorCode(ofBody: response.body) == useDPoPNonce
    }

    /// The `error` parameter of a `DPoP` challenge (RFC 9110 §11.6.1, RFC 9449 §7.1), quoted or
    /// not; `nil` when the header has no `DPoP` challenge or it has no `error`. Another scheme's
    /// challenge in the same header (`Bearer realm="api", DPoP error="…"`) is skipped.
    static func errorCode(ofChallenge header: String?) -> String? {
        guard let header else { return nil }
        var inDPoP = false
        for part in header.split(separator: ",") {
            var item = Substring(trimmed(part))
            let words = item.split(separator: " ", maxSplits: 1)
            if let first = words.first, !first.contains("="), words.count == 1 || !words[1].hasPrefix("=") {
                // A new challenge: its scheme, then maybe its first parameter.
                inDPoP = first.lowercased() == "dpop"
                guard words.count == 2 else { continue }
                item = words[1]
            }
            let pair = item.split(separator: "=", maxSplits: 1)
            guard inDPoP, pair.count == 2, trimmed(pair[0]).lowercased() == "error" else { continue }
            return String(trimmed(pair[1]).filter { $0 != "\"" })
        }
        return nil
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// The `error` member of a JSON error body.
    static func errorCode(ofBody body: [UInt8]) -> String? {
        guard let object = try? JSONDecoder().decode([String: JSONValue].self, from: Data(body)) else { return nil }
        return object["error"]?.stringValue
    }
}
