import Hummingbird

/// **[local]** The local outbox's one route, served only with ``OutboxConfiguration/servesTestRoute``
/// (`tenant serve --test-outbox`); without it the route does not exist and the tenant answers 404,
/// as for any unknown path:
///
/// ```
/// GET /test/outbox?to=ADDRESS   the messages sent to ADDRESS (any case), a JSON array, newest last
/// ```
///
/// Auth0 sends mail and SMS through its providers; the local tenant keeps them (``TenantServices/send(_:)``)
/// and this is how a test reads a code or a link. Each element is an ``OutboxEntry``; an address
/// with no live message gets `[]`.
struct OutboxAPI: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        guard configuration.outbox.servesTestRoute else { return }
        router.get("test/outbox") { request, _ in
            try await self.messages(query: request.uri.query)
        }
    }

    /// `GET /test/outbox`.
    ///
    /// - Parameter query: the query string, without `?`.
    /// - Returns: the JSON array.
    /// - Throws: `invalid_request` when `to` is missing or given twice; `server_error` when the
    ///   store fails.
    func messages(query: String?) async throws(TenantError) -> Response {
        let parameters = FormParameters(query)
        guard let recipient = parameters["to"], !parameters.repeated.contains("to") else {
            throw .invalidRequest("to: give the address (an email or a phone number) once")
        }
        let messages = try await services.outbox(to: recipient)
        return TenantResponseEncoder.json(messages.map(OutboxEntry.init(message:)))
    }
}
