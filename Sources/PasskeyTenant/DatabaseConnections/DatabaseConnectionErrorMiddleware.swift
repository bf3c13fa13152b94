import HTTPTypes
import Hummingbird

/// Renders `/dbconnections/*` refusals in the shape Auth0 answers them (Auth0.swift's
/// `AuthenticationError` reads `code` and `description` as it reads `error` and
/// `error_description`):
///
/// ```json
/// {"name": "BadRequestError", "code": "user_exists", "description": "The user already exists.", "statusCode": 400}
/// ```
///
/// and a weak password as ``PasswordStrengthError`` says. A lockout and the tenant's own faults go
/// on to the tenant's ``ErrorMiddleware``.
struct DatabaseConnectionErrorMiddleware: RouterMiddleware {
    typealias Context = TenantRequestContext

    /// The body of a refusal.
    struct Refusal: Encodable {
        var name: String
        var code: String
        var description: String
        var statusCode: Int
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as PasswordStrengthError {
            return TenantResponseEncoder.json(error.body, status: .badRequest)
        } catch let error as TenantError where error.status < 500 && error.code != .tooManyAttempts {
            let name =
                switch error.status {
                case 400: "BadRequestError"
                case 401: "UnauthorizedError"
                case 403: "ForbiddenError"
                default: ErrorMiddleware.title(error.status).replacing(" ", with: "") + "Error"
                }
            return TenantResponseEncoder.json(
                Refusal(name: name, code: error.code.rawValue, description: error.detail, statusCode: error.status),
                status: HTTPResponse.Status(code: error.status, reasonPhrase: ErrorMiddleware.title(error.status)))
        }
    }
}
