public import WebAuthn

/// Where a server that does not follow the FIDO transport binding keeps its four calls: a path,
/// a body built from the binding's, where the options are in the answer, and how it says yes.
///
/// Read from JSON (``init(json:)``). Every string in `path`, `headers` and `body` may name values
/// of the ceremony between double braces: `{{request}}` (the binding's body: the options request,
/// or the credential for a result call), `{{request.username}}` and any member path under it,
/// `{{credential}}` (the same as `{{request}}`), and `{{options.…}}`, a member of the same
/// ceremony's options answer, and `{{env.NAME}}`, a variable the target was given (the CLI gives
/// its environment, so a map names a client ID without holding it). A string that is nothing but one name takes that value whole (an
/// object stays an object); elsewhere the value's text is put in place. Members a map leaves out
/// keep the binding's values, so `{}` is the binding itself.
///
/// ```json
/// {"attestationOptions": {"path": "/passkey/register", "options": "authn_params_public_key",
///   "body": {"client_id": "app", "user_profile": {"email": "{{request.username}}"}}},
///  "attestationResult": {"path": "/oauth/token", "statusMember": null,
///   "body": {"grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": "app",
///            "auth_session": "{{options.auth_session}}", "authn_response": "{{credential}}"}}}
/// ```
public struct EndpointMap: Sendable, Hashable {
    /// One call.
    public struct Endpoint: Sendable, Hashable {
        /// The path, appended to the server URL.
        public var path: String
        /// The body template; `nil` sends the binding's body as it is.
        public var body: JSONValue?
        /// Extra request headers.
        public var headers: [String: String]
        /// For an options call, the member path of the options in the answer (`a.b`); `nil` for
        /// the whole answer.
        public var options: String?
        /// The answer member that must be `"ok"` for a yes; `nil` when a 2xx alone says yes.
        public var statusMember: String?

        public init(
            path: String, body: JSONValue? = nil, headers: [String: String] = [:], options: String? = nil,
            statusMember: String? = "status"
        ) {
            self.path = path
            self.body = body
            self.headers = headers
            self.options = options
            self.statusMember = statusMember
        }
    }

    public var endpoints: [ConformanceCall: Endpoint]
    /// Tests that do not apply to the server, by ID, each with the reason (`notApplicable` in the
    /// file): reported as skipped with that reason. For rules a server's own protocol has no
    /// place for (an Auth0 signup takes no `authenticatorSelection` to echo), never to hide a
    /// failure.
    public var notApplicable: [String: String] = [:]

    /// The FIDO transport binding itself: `POST /attestation/options` and the rest, bodies as
    /// they are, `status` `"ok"` for a yes.
    public static let binding = EndpointMap(
        endpoints: Dictionary(uniqueKeysWithValues: ConformanceCall.allCases.map { ($0, Endpoint(path: "/\($0.rawValue)")) }))

    public init(endpoints: [ConformanceCall: Endpoint], notApplicable: [String: String] = [:]) {
        self.endpoints = endpoints
        self.notApplicable = notApplicable
    }

    /// Reads a map: an object whose members are the calls (`attestationOptions`,
    /// `attestationResult`, `assertionOptions`, `assertionResult`), each with `path`, `body`,
    /// `headers`, `options` and `statusMember`, and `notApplicable` (test ID → reason); a call
    /// or member left out keeps the binding's.
    ///
    /// - Throws: `bad-map` naming the member that is wrong.
    public init(json bytes: [UInt8]) throws(ConformanceError) {
        let value: JSONValue
        do {
            value = try JSONValue(json: bytes)
        } catch {
            throw ConformanceError(.badMap, "the endpoint map is not JSON: \(error)")
        }
        guard let members = value.objectValue else {
            throw ConformanceError(.badMap, "the endpoint map is not a JSON object")
        }
        endpoints = Self.binding.endpoints
        for (name, member) in members {
            if name == "notApplicable" {
                try readNotApplicable(member)
                continue
            }
            guard let call = Self.calls[name] else {
                throw ConformanceError(.badMap, "\(name): not a call (\(Self.calls.keys.sorted().joined(separator: ", ")))")
            }
            endpoints[call] = try Self.endpoint(member, name: name, default: self[call])
        }
    }

    private mutating func readNotApplicable(_ member: JSONValue) throws(ConformanceError) {
        guard let reasons = member.objectValue else {
            throw ConformanceError(.badMap, "notApplicable: not an object of test IDs and reasons")
        }
        for (id, reason) in reasons {
            guard let reason = reason.stringValue, !reason.isEmpty else {
                throw ConformanceError(.badMap, "notApplicable.\(id): give the reason as a string")
            }
            notApplicable[id] = reason
        }
    }

    /// The endpoint of `call`.
    public subscript(call: ConformanceCall) -> Endpoint {
        endpoints[call] ?? Endpoint(path: "/\(call.rawValue)")
    }

    private static let calls: [String: ConformanceCall] = [
        "attestationOptions": .attestationOptions, "attestationResult": .attestationResult,
        "assertionOptions": .assertionOptions, "assertionResult": .assertionResult,
    ]

    private static func endpoint(_ value: JSONValue, name: String, default endpoint: Endpoint) throws(ConformanceError)
        -> Endpoint
    {
        guard let members = value.objectValue else { throw ConformanceError(.badMap, "\(name): not an object") }
        var endpoint = endpoint
        for (key, member) in members {
            switch (key, member) {
            case ("path", .string(let path)) where path.hasPrefix("/"): endpoint.path = path
            case ("body", _): endpoint.body = member
            case ("options", .string(let path)): endpoint.options = path
            case ("options", .null): endpoint.options = nil
            case ("statusMember", .string(let path)): endpoint.statusMember = path
            case ("statusMember", .null): endpoint.statusMember = nil
            case ("headers", .object(let headers)):
                endpoint.headers = [:]
                for (header, text) in headers {
                    guard let text = text.stringValue else {
                        throw ConformanceError(.badMap, "\(name).headers.\(header): not a string")
                    }
                    endpoint.headers[header] = text
                }
            default:
                throw ConformanceError(
                    .badMap, "\(name).\(key): not a member of an endpoint, or the wrong type (path starts with /)")
            }
        }
        return endpoint
    }
}

extension EndpointMap.Endpoint {
    /// The values a template may name.
    struct Values {
        let request: JSONValue
        let options: JSONValue?
        let variables: [String: String]

        /// The value a name (`request.user.name`, `options.auth_session`, `credential`) stands for.
        func value(_ name: String) throws(ConformanceError) -> JSONValue {
            var path = name.split(separator: ".").map(String.init)
            let root: JSONValue?
            if path.first == "env", path.count == 2 {
                guard let value = variables[path[1]] else {
                    throw ConformanceError(.badMap, "{{\(name)}}: the variable \(path[1]) is not set")
                }
                return .string(value)
            }
            switch path.first {
            case "request", "credential": root = request
            case "options": root = options
            default: throw ConformanceError(.badMap, "{{\(name)}}: names neither request, credential, options nor env")
            }
            path.removeFirst()
            var value = root
            for member in path { value = value?[member] }
            guard let value else {
                throw ConformanceError(.badMap, "{{\(name)}}: the ceremony has no such value")
            }
            return value
        }
    }

    /// `template` with every `{{name}}` replaced.
    static func fill(_ template: JSONValue, _ values: Values) throws(ConformanceError) -> JSONValue {
        switch template {
        case .string(let text): return try fill(text, values)
        case .array(let items):
            var filled: [JSONValue] = []
            for item in items { filled.append(try fill(item, values)) }
            return .array(filled)
        case .object(let members):
            var filled: [String: JSONValue] = [:]
            for (key, member) in members { filled[key] = try fill(member, values) }
            return .object(filled)
        default: return template
        }
    }

    /// A string template: one whole name gives its value; names within text give their text.
    static func fill(_ text: String, _ values: Values) throws(ConformanceError) -> JSONValue {
        if text.hasPrefix("{{"), text.hasSuffix("}}"), text.count > 4,
            !text.dropFirst(2).dropLast(2).contains("{{")
        {
            return try values.value(String(text.dropFirst(2).dropLast(2)))
        }
        return .string(try interpolate(text, values))
    }

    /// Text with each `{{name}}` replaced by its value's text (a string as it is, anything else as JSON).
    static func interpolate(_ text: String, _ values: Values) throws(ConformanceError) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{") {
            guard let close = rest[open.upperBound...].firstRange(of: "}}") else { break }
            result += rest[..<open.lowerBound]
            let value = try values.value(String(rest[open.upperBound..<close.lowerBound]))
            result += value.stringValue ?? String(decoding: value.json, as: UTF8.self)
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
