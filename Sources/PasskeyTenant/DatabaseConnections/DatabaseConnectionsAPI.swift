import FoundationEssentials
import HTTPTypes
import Hummingbird
import JSONBodies
import NIOCore

/// The database connection's password endpoints (Auth0 Authentication API, "Database
/// connections"), and the page a password-reset ticket opens:
///
/// ```
/// POST /dbconnections/signup           a password user → {_id, email, email_verified, …} (under the address lockout)
/// POST /dbconnections/change_password  a reset ticket in the outbox → Auth0's sentence  (under the address lockout)
/// GET  /lo/reset?ticket=…              the new-password form                  [local page, Auth0's path]
/// POST /lo/reset                       sets the new password (form: ticket, password)
/// ```
///
/// The `/dbconnections/*` refusals are in Auth0's `{name, code, description, statusCode}` shape
/// (``DatabaseConnectionErrorMiddleware``). The password grants are ``AuthenticationAPI``'s
/// (`/oauth/token`, ``AuthenticationAPI/passwordGrant(_:)``).
struct DatabaseConnectionsAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        let limited = limited(router).add(middleware: DatabaseConnectionErrorMiddleware())
        limited.post("dbconnections/signup") { request, context in
            try await self.signup(
                JSONRequestDecoder.tenant.decode(DatabaseSignupRequest.self, jsonOrFormFrom: request, context: context))
        }
        limited.post("dbconnections/change_password") { request, context in
            try await self.changePassword(
                JSONRequestDecoder.tenant.decode(ChangePasswordRequest.self, jsonOrFormFrom: request, context: context))
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: Self.resetSentence)))
        }
        let sources = configuration.pageConnectSources
        router.get("lo/reset") { request, _ in
            await self.resetPage(ticket: FormParameters(request.uri.query)["ticket"]).response(connectSources: sources)
        }
        router.post("lo/reset") { request, _ in
            guard let body = try? await request.body.collect(upTo: configuration.maxBodySize) else {
                return BrowserResponse.page(
                    .contentTooLarge, HTMLPage.message(title: "Reset password", text: "The form is too large.")
                ).response(connectSources: sources)
            }
            let form = FormParameters(String(buffer: body))
            return await self.reset(ticket: form["ticket"], password: form["password"].map(Secret.init))
                .response(connectSources: sources)
        }
    }

    /// What `/dbconnections/change_password` answers for any email, so the answer tells no
    /// account apart (Auth0's words).
    static let resetSentence = "We've just sent you an email to reset your password."

    /// The application a `/dbconnections/*` request names: any of the tenant's but the Management
    /// API's own client. No secret is asked for, as Auth0 asks none.
    ///
    /// - Throws: `invalid_request` without a `client_id`; `invalid_client` (401) for an unknown one.
    func checkClient(_ clientID: String?) throws(TenantError) -> RegisteredApplication {
        guard let clientID, !clientID.isEmpty else { throw .invalidRequest("Missing required parameter: client_id") }
        guard let client = services.application(clientID), clientID != services.managementClientID else {
            throw TenantError(.invalidClient, status: 401, "Unknown client: \(clientID.prefix(64))")
        }
        return client
    }
}
