import HTTPTypes
import Hummingbird
import NIOCore
import WebAuthn

/// Guards and shapes every answer: a request without the bearer token is refused (401, RFC 6750
/// §3) before any route runs (but the page bridge's, which check their capability), every failure becomes WebDriver's error shape, and each answer's
/// status is counted.
struct ControlMiddleware: RouterMiddleware {
    typealias Context = ControlRequestContext

    let token: ControlToken
    let metrics: ControlMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let response: Response
        // The page bridge's routes carry a capability of their own (BridgeMiddleware, pageCaller, relayCaller).
        if !request.uri.path.hasPrefix("/bridge/") && !token.accepts(request.headers[.authorization]) {
            response = Self.render(.unauthorized, headers: [.wwwAuthenticate: #"Bearer realm="passkey""#])
        } else {
            response = await Self.answer(request, context, next)
        }
        metrics.answered(status: response.status.code)
        return response
    }

    /// What `next` answers, or its failure in WebDriver's error shape.
    static func answer(
        _ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response
    ) async -> Response {
        do {
            return try await next(request, context)
        } catch let error as ControlError {
            return render(error)
        } catch let error as any HTTPResponseError {
            return render(controlError(for: error.status))
        } catch {
            return render(ControlError(serverFault: error))
        }
    }

    /// A Hummingbird error (no route, a missing path parameter) as a control error.
    static func controlError(for status: HTTPResponse.Status) -> ControlError {
        switch status.code {
        case 404: .unknownCommand
        case 405: ControlError("unknown method", status: 405, "the command has no such method")
        case 413: .tooLarge(limit: ControlServer.maxBodySize)
        case 400..<500: .invalidArgument(status.reasonPhrase)
        default: ControlError("unknown error", status: status.code, status.reasonPhrase)
        }
    }

    /// `{"value": {"error", "message", "stacktrace"}}` (W3C WebDriver §6.6).
    static func render(_ error: ControlError, headers: HTTPFields = [:]) -> Response {
        ControlResponseEncoder.response(
            ErrorValue(error: error.code, message: error.message, stacktrace: ""),
            status: HTTPResponse.Status(code: error.status), headers: headers)
    }

    /// The `value` of WebDriver's error shape.
    struct ErrorValue: Encodable {
        let error: String
        let message: String
        let stacktrace: String
    }
}
