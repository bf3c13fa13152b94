import Auth0Passkeys
import Foundation
import WebAuthn

/// What `passkey api` reports: the API's status and body.
struct APIOutcome: Encodable {
    let status: Int
    /// The body as JSON when it is JSON, else as text.
    let body: JSONValue

    init(status: Int, body: [UInt8]) {
        self.status = status
        self.body =
            (try? JSONDecoder().decode(JSONValue.self, from: Data(body)))
            ?? .string(String(decoding: body, as: UTF8.self))
        rawBody = String(decoding: body, as: UTF8.self)
    }

    private let rawBody: String

    enum CodingKeys: String, CodingKey { case status, body }

    /// The body as the API sent it.
    var text: String { rawBody }
}

extension APIOutcome {
    /// The outcome of an API's answer, or, for an error status, the failure carrying the
    /// `WWW-Authenticate` error (RFC 6750 §3) or the body's `error`.
    init(checking response: HTTPResponse) throws(FlowFailure) {
        self.init(status: response.status, body: response.body)
        guard response.isSuccess else {
            let challenge = response.header("WWW-Authenticate").map(Self.bearerError) ?? nil
            let code = challenge?.code ?? body.objectValue?["error"]?.stringValue ?? "http_\(response.status)"
            let description =
                challenge?.description ?? body.objectValue?["error_description"]?.stringValue
                ?? String(text.prefix(200))
            throw FlowFailure(
                step: "api", code: code, description: description, status: response.status,
                hint: response.status == 401 || response.status == 403
                    ? "the API refused the token: ask for its audience and scope (--audience A --scope S)"
                    : "see the API's answer; -v shows the exchange")
        }
    }

    /// `error` and `error_description` of a `Bearer` challenge (RFC 6750 §3).
    static func bearerError(_ header: String) -> (code: String, description: String)? {
        func parameter(_ name: String) -> String? {
            guard let start = header.range(of: name + "=\"") else { return nil }
            let rest = header[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        guard let code = parameter("error") else { return nil }
        return (code, parameter("error_description") ?? code)
    }
}
