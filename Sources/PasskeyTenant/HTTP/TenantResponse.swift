import HTTPTypes
import Hummingbird
import NIOCore
import WebAuthn

/// Building the tenant's responses.
enum TenantResponse {
    /// A JSON response: compact, keys sorted, `Cache-Control: no-store` (tokens must not be cached,
    /// RFC 6749 §5.1).
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
