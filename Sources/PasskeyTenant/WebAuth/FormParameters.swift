import WebAuthn

/// Parameters in `application/x-www-form-urlencoded` form (WHATWG URL §5.1): a query string of
/// `GET /authorize` and `GET /v2/logout`, or a form body of `POST /oauth/token` (RFC 6749
/// §4.1.3, Appendix B).
///
/// `+` is a space and `%XX` a byte. A name given twice is remembered, since OAuth refuses
/// repeated parameters (RFC 6749 §3.1, §3.2).
struct FormParameters: Sendable, Hashable {
    /// Each name's value; the first one when a name repeats.
    private(set) var values: [String: String] = [:]
    /// The names given more than once, sorted.
    private(set) var repeated: [String] = []

    /// Parses `text` (without the `?`); nil gives no parameters.
    init(_ text: String?) {
        guard let text else { return }
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count == 2 ? Self.decode(parts[1]) : ""
            if values[name] == nil {
                values[name] = value
            } else if !repeated.contains(name) {
                repeated.append(name)
                repeated.sort()
            }
        }
    }

    /// The value of `name`, nil when absent or empty (RFC 6749 §3.1: "Parameters sent without a
    /// value MUST be treated as if they were omitted").
    subscript(_ name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// `parameters` as a query string (without the `?`), each value percent-encoded.
    static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\($0)=\(PercentEncoding.encode($1))" }.joined(separator: "&")
    }

    private static func decode(_ text: Substring) -> String {
        PercentEncoding.decode(String(text).replacing("+", with: " "))
    }
}
