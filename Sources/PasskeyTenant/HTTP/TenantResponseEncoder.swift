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
