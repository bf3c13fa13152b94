public import Auth0Passkeys
public import WebAuthn

/// A relying-party server over HTTP: each call a `POST` of JSON to the server URL and the call's
/// path, as the FIDO transport binding (FIDO "Server Requirements and Transport Binding Profile"
/// §7) or an ``EndpointMap`` lays it out, through the package's one HTTP client
/// (`CurlTransport`).
///
/// ```swift
/// let target = HTTPConformanceTarget(server: "http://localhost:8080")
/// let report = await ConformanceSuite().run(against: target, origin: "http://localhost:8080")
/// ```
public struct HTTPConformanceTarget: ConformanceTarget, CustomStringConvertible {
    /// The server URL the paths are appended to, without a trailing `/`.
    public let server: String
    /// Where the calls are.
    public let map: EndpointMap
    /// The values `{{env.NAME}}` in the map stands for.
    public let variables: [String: String]
    private let transport: any HTTPTransport

    /// A target.
    ///
    /// - Parameters:
    ///   - server: the server URL (`http://localhost:8080`, `https://rp.example/webauthn`).
    ///   - map: where the calls are; the binding by default.
    ///   - variables: the values `{{env.NAME}}` in the map stands for.
    ///   - transport: the HTTP client; libcurl, with a 10-second limit per call, by default.
    public init(
        server: String, map: EndpointMap = .binding, variables: [String: String] = [:],
        transport: (any HTTPTransport)? = nil
    ) {
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.map = map
        self.variables = variables
        self.transport =
            transport ?? CurlTransport(configuration: .init(timeout: .seconds(10), connectTimeout: .seconds(5)))
    }

    public var notApplicable: [String: String] { map.notApplicable }

    /// The server URL: never the variables, which may hold secrets.
    public var description: String { server }

    public func send(_ call: ConformanceCall, _ body: JSONValue, after options: ConformanceAnswer?)
        async throws(ConformanceError) -> ConformanceAnswer
    {
        let endpoint = map[call]
        let values = EndpointMap.Endpoint.Values(request: body, options: options?.body, variables: variables)
        let filled =
            try endpoint.body.map { template throws(ConformanceError) in
                try EndpointMap.Endpoint.fill(template, values)
            } ?? body
        var headers = [(name: "Content-Type", value: "application/json"), (name: "Accept", value: "application/json")]
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
            headers.append((name, try EndpointMap.Endpoint.interpolate(value, values)))
        }
        if let cookies = options?.cookies, !cookies.isEmpty {
            headers.append((name: "Cookie", value: cookies.joined(separator: "; ")))
        }
        let url = server + (try EndpointMap.Endpoint.interpolate(endpoint.path, values))
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(method: .post, url: url, headers: headers, body: filled.json))
        } catch {
            throw ConformanceError(.unreachable, "POST \(url): \(error.code): \(error.reason)")
        }
        return try Self.answer(response, call: call, endpoint: endpoint, url: url)
    }

    /// Reads a response as the binding (or the map) describes it.
    static func answer(_ response: HTTPResponse, call: ConformanceCall, endpoint: EndpointMap.Endpoint, url: String)
        throws(ConformanceError) -> ConformanceAnswer
    {
        let status = response.status
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
        switch status {
        case 300..<400:
            throw ConformanceError(
                .redirected, "POST \(url) answered \(status) to \(response.header("Location") ?? "nowhere")")
        case 500...:
            throw ConformanceError(.serverError, "POST \(url) answered \(status): \(text)")
        case 200..<300: break
        default:
            // A refusal needs no particular body: whatever it says is its message.
            let body = (try? JSONValue(json: response.body)) ?? .string(text)
            let message =
                body["errorMessage"]?.stringValue ?? body["error_description"]?.stringValue
                ?? body["error"]?.stringValue ?? text
            return ConformanceAnswer(status: status, accepted: false, message: message, body: body)
        }
        guard let body = try? JSONValue(json: response.body) else {
            throw ConformanceError(.badAnswer, "POST \(url) answered \(status) with a body that is not JSON: \(text)")
        }
        var accepted = true
        if let member = endpoint.statusMember {
            accepted = body[member]?.stringValue == "ok"
        }
        let message = body["errorMessage"]?.stringValue ?? ""
        var options: JSONValue?
        if call.isOptions && accepted {
            options = body
            for member in endpoint.options?.split(separator: ".") ?? [] { options = options?[String(member)] }
            guard options?.objectValue != nil else {
                throw ConformanceError(
                    .badAnswer, "POST \(url) answered no options object at \(endpoint.options ?? "the top level")")
            }
        }
        var answer = ConformanceAnswer(
            status: status, accepted: accepted, message: message, body: body, options: options)
        answer.cookies = response.headers.filter { $0.name.lowercased() == "set-cookie" }.compactMap { header in
            header.value.split(separator: ";", maxSplits: 1).first.map { String($0.drop(while: \.isWhitespace)) }
        }
        return answer
    }
}
