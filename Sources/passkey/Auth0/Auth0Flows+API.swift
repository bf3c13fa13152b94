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

extension Auth0Flows {
    /// Calls a protected API with the session's access token (or, with `audience`, a token for
    /// that API from the refresh token) as a Bearer token (RFC 6750 §2.1).
    ///
    /// The token goes only to `https://` URLs, or `http://` on a loopback host. An error status
    /// is a failure carrying the `WWW-Authenticate` error (RFC 6750 §3) or the body's `error`.
    func api(method: String, url: String, audience: String?, scope: String?, body: String?) async throws
        -> APIOutcome
    {
        guard let verb = HTTPRequest.Method(rawValue: method.uppercased()) else {
            throw FlowFailure(
                step: "api", code: "bad_method", description: "\(method) is not one of GET, POST, PATCH, DELETE",
                hint: "use GET, POST, PATCH or DELETE")
        }
        if case .failure(let refused) = BaseURL.validated(url) {
            throw FlowFailure(
                step: "api", code: "refused_url", description: refused.reason,
                hint: "a bearer token goes only over https (or http to a loopback address)")
        }
        let token = try await token(audience: audience, scope: scope)
        var headers = [(name: "Authorization", value: "\(token.tokenType) \(token.accessToken)")]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let client = HTTPClient(transport: transport, clientInfo: nil, logger: logger)
        let response: HTTPResponse
        do {
            response = try await client.perform(
                HTTPRequest(method: verb, url: url, headers: headers, body: body.map { Array($0.utf8) }),
                retryable: verb == .get)
        } catch {
            throw FlowFailure(
                step: "api", code: error.code.rawValue, description: "no answer from \(url): \(error.reason)",
                hint: "is the API running and the URL right?")
        }
        let outcome = APIOutcome(status: response.status, body: response.body)
        guard response.isSuccess else {
            let challenge = response.header("WWW-Authenticate").map(Self.bearerError) ?? nil
            let code = challenge?.code ?? outcome.body.objectValue?["error"]?.stringValue ?? "http_\(response.status)"
            let description =
                challenge?.description ?? outcome.body.objectValue?["error_description"]?.stringValue
                ?? String(outcome.text.prefix(200))
            throw FlowFailure(
                step: "api", code: code, description: description, status: response.status,
                hint: response.status == 401 || response.status == 403
                    ? "the API refused the token: ask for its audience and scope (--audience A --scope S)"
                    : "see the API's answer; -v shows the exchange")
        }
        return outcome
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
