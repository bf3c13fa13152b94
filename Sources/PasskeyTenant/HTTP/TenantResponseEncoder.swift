import HTTPTypes
public import Hummingbird
import NIOCore
import WebAuthn

/// Writes the tenant's answers: compact JSON with sorted keys and `Cache-Control: no-store`
/// (tokens must not be cached, RFC 6749 §5.1), errors included.
public struct TenantResponseEncoder: ResponseEncoder {
    /// Creates the encoder.
    public init() {}

    /// A 200 answer carrying `value`.
    ///
    /// - Parameters:
    ///   - value: the body.
    ///   - request: the request answered.
    ///   - context: its context.
    /// - Returns: the response.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) -> Response {
        Self.json(value)
    }

    /// A JSON response of any status.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: WebAuthnJSON.encode(value))))
    }

    /// An empty response.
    static func empty(status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.cacheControl: "no-store"])
    }
}

// The bodies routes answer with, written by the context's ``TenantResponseEncoder``.
extension ChallengeResponse: ResponseEncodable {}
extension TokenResponse: ResponseEncodable {}
extension UserClaims: ResponseEncodable {}
extension EventList: ResponseEncodable {}
extension AuthenticationMethod: ResponseEncodable {}
extension AuthenticationMethodList: ResponseEncodable {}
extension FactorList: ResponseEncodable {}
extension JSONWebKeySet: ResponseEncodable {}
extension OpenIDConfiguration: ResponseEncodable {}
extension PageOptionsResponse: ResponseEncodable {}
extension PageVerifyResponse: ResponseEncodable {}
extension EmbeddedOptionsResponse: ResponseEncodable {}
extension EmbeddedAuthenticateResponse: ResponseEncodable {}

// The answers of a login and a signup write themselves, byte for byte as `JSONEncoder` would
// (sorted keys, `/` unescaped), without its `Encoder` machinery: in `passkey-bench e2e`'s profile
// `JSONEncoder` under this encoder was a tenth of the tenant's work that is not RS256.
extension ChallengeResponse: JSONWritable where Options: JSONWritable {
    var writesDirectly: Bool { options.writesDirectly }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member(CodingKeys.authSession.rawValue, authSession.text)
            writer.key(CodingKeys.options.rawValue)
            options.write(to: &writer)
        }
    }
}

extension TokenResponse: JSONWritable {
    var writesDirectly: Bool { true }

    func write(to writer: inout JSONWriter) {
        writer.object { writer in
            writer.member(CodingKeys.accessToken.rawValue, accessToken.text)
            writer.member(CodingKeys.expiresIn.rawValue, expiresIn)
            if let idToken { writer.member(CodingKeys.idToken.rawValue, idToken.text) }
            if let issuedTokenType { writer.member(CodingKeys.issuedTokenType.rawValue, issuedTokenType) }
            if let refreshToken { writer.member(CodingKeys.refreshToken.rawValue, refreshToken.text) }
            // A session transfer token's answer has no scope (``TokenResponse``).
            if !scope.isEmpty { writer.member(CodingKeys.scope.rawValue, scope) }
            writer.member(CodingKeys.tokenType.rawValue, tokenType)
        }
    }
}
