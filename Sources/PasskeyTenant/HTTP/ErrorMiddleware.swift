import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import WebAuthn

/// Turns every failure below it into a response in the shape of the API it belongs to, and logs
/// each request's method, path and status (never a header or a body: they carry secrets).
///
/// The Authentication API answers `{"error", "error_description"}`; My Account answers
/// `{"type", "status", "title", "detail"}` (auth0-passkey-api.md §7.1, §7.2); the Management API
/// answers `{"statusCode", "error", "message", "errorCode"}` (§15.4), and the Authentication API's
/// middleware renders every failure under `/api/v2/` so, unknown routes included. A refused bearer
/// token also gets `WWW-Authenticate` (RFC 6750 §3): a `DPoP` challenge with `algs` for a
/// refused DPoP proof or nonce at a resource server and for any refusal of a request that used
/// `Authorization: DPoP` (RFC 9449 §7.1), else a `Bearer` one; a refused client authentication
/// that used `Authorization: Basic` gets a `Basic` one (RFC 6749 §5.2); a lockout gets `Retry-After`.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    /// The body shape of an API's errors.
    enum Shape {
        case authentication
        case myAccount
        case management
    }

    let shape: Shape
    /// The realm of `WWW-Authenticate`: the tenant's domain.
    let realm: String
    /// Where requests are logged; nil for a group whose requests the outer middleware logs.
    let logger: Logger?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response: Response
        let shape = self.shape == .authentication && request.uri.path.hasPrefix("/api/v2/") ? .management : self.shape
        let authorization = TenantServices.authorization(request)
        let scheme = authorization?.scheme
        let dpop = scheme == "dpop" && authorization?.token.text.isEmpty == false
        do {
            response = try await next(request, context)
        } catch let error as TenantError {
            response = render(error, as: shape, dpop: dpop, basic: scheme == "basic")
        } catch let error as any HTTPResponseError {
            response = render(Self.tenantError(for: error.status), as: shape)
        } catch {
            logger?.error("\(request.method) \(request.uri.path) failed: \(String(describing: type(of: error)))")
            response = render(TenantError(.serverError, status: 500, "The tenant failed to answer."), as: shape)
        }
        logger?.info("\(request.method) \(request.uri.path) \(response.status.code)")
        return response
    }

    /// A Hummingbird error (no route, body too large) as a tenant error.
    static func tenantError(for status: HTTPResponse.Status) -> TenantError {
        switch status.code {
        case 404: TenantError(.notFound, status: 404, "No such endpoint.")
        case 413: TenantError(.payloadTooLarge, status: 413, "The request body is too large.")
        case 400..<500: TenantError(.invalidRequest, status: status.code, status.reasonPhrase)
        default: TenantError(.serverError, status: status.code, status.reasonPhrase)
        }
    }

    /// The reason phrase of a status the tenant answers (RFC 9110 §15).
    static func title(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        default: status < 500 ? "Client Error" : "Internal Server Error"
        }
    }

    /// The response for `error`, in `shape`; `dpop` when the request sent `Authorization: DPoP`,
    /// `basic` when it sent `Authorization: Basic` (a client authentication refused then gets a
    /// Basic challenge, RFC 6749 §5.2).
    func render(_ error: TenantError, as shape: Shape, dpop: Bool = false, basic: Bool = false) -> Response {
        let status = HTTPResponse.Status(code: error.status, reasonPhrase: Self.title(error.status))
        var headers = HTTPFields()
        if let wait = error.retryAfter {
            headers[.retryAfter] = String(wait)
        }
        let isTokenError = error.code == .invalidToken || error.code == .insufficientScope
        let isProofError = error.code == .invalidDPoPProof || error.code == .useDPoPNonce
        let description = error.detail.filter { $0 != "\"" && $0 != "\\" }
        let parameters = #"realm="\#(realm)", error="\#(error.code)", error_description="\#(description)""#
        if (isTokenError && dpop) || (isProofError && error.status == 401) {
            headers[.wwwAuthenticate] = #"DPoP \#(parameters), algs="\#(DPoPKey.algorithms.joined(separator: " "))""#
        } else if isTokenError {
            headers[.wwwAuthenticate] = "Bearer " + parameters
        } else if error.code == .invalidClient, error.status == 401, basic {
            headers[.wwwAuthenticate] = #"Basic realm="\#(realm)""#
        }
        switch shape {
        case .authentication:
            return TenantResponseEncoder.json(
                OAuthError(error: error.code.rawValue, errorDescription: error.detail), status: status,
                headers: headers)
        case .myAccount:
            return TenantResponseEncoder.json(
                Problem(
                    type: error.code.rawValue, status: error.status, title: Self.title(error.status),
                    detail: error.detail),
                status: status, headers: headers)
        case .management:
            // A body the decoder refused is the Management API's `invalid_body`.
            let code = error.code == .invalidRequest ? TenantError.Code.invalidBody : error.code
            return TenantResponseEncoder.json(
                ManagementError(
                    statusCode: error.status, error: Self.title(error.status), message: error.detail,
                    errorCode: code.rawValue),
                status: status, headers: headers)
        }
    }
}

/// The Authentication API's error body (auth0-passkey-api.md §7.1).
struct OAuthError: Codable {
    var error: String
    var errorDescription: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

/// The Management API's error body (auth0-passkey-api.md §15.4).
struct ManagementError: Codable {
    var statusCode: Int
    var error: String
    var message: String
    var errorCode: String
}

/// My Account's error body (auth0-passkey-api.md §7.2; RFC 9457).
struct Problem: Codable {
    var type: String
    var status: Int
    var title: String
    var detail: String
}
