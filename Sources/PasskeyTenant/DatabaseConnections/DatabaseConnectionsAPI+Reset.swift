import FoundationEssentials
import HTTPTypes
import Logging
import WebAuthn

extension DatabaseConnectionsAPI {
    /// `POST /dbconnections/change_password`: for a user of the connection with a password, a
    /// reset ticket (``PasswordTicket``, live ``DatabaseConnectionOptions/resetTicketLifetime``)
    /// whose link, `https://DOMAIN/lo/reset?ticket=…`, goes to the local outbox as a
    /// `password_reset` message (``TenantServices/send(_:)``). Any other email (unknown, or a
    /// passkey-only user) gets the same answer and no message, so the answer tells no account apart.
    ///
    /// - Throws: `invalid_client` (401); `bad.connection`; `invalid_request` without an email.
    func changePassword(_ body: ChangePasswordRequest) async throws(TenantError) {
        let client = try checkClient(body.clientID)
        guard let connection = body.connection, !connection.isEmpty else {
            throw TenantError(.badConnection, "Missing required parameter: connection")
        }
        _ = try services.checkPasswordConnection(connection)
        guard let email = body.email, !email.isEmpty else { throw .invalidRequest("Missing required parameter: email") }
        guard let user = try await services.databaseUser(email), user.profile.email != nil,
            try await store.peek(StoredPassword.self, key: StoredPassword.key(user.id), at: clock.now()) != nil
        else { return }
        let ticket = Secret.random()
        let now = clock.now()
        try await store.insert(
            PasswordTicket(
                userID: user.id, clientID: client.clientID,
                expiresAt: now.addingTimeInterval(configuration.databaseConnection.resetTicketLifetime.seconds)),
            key: .digest(ticket.digest), expiring: now)
        let link = configuration.issuer + "lo/reset?ticket=" + ticket.text
        try await services.send(
            OutboxMessage(
                id: TenantServices.newMessageID(), to: email, channel: .email, kind: .passwordReset,
                text: "Reset your password for \(configuration.domain): \(link)", code: nil, link: link,
                clientID: client.clientID, createdAt: now))
    }

    /// `GET /lo/reset?ticket=…`: the new-password form of a live ticket, or a page saying the link
    /// is no good. The ticket stays live until a new password is set with it.
    func resetPage(ticket: String?) async -> BrowserResponse {
        guard let ticket, (try? await liveTicket(Secret(ticket))) != nil else { return Self.badTicket }
        return BrowserResponse.page(.ok, Self.resetForm(ticket: ticket, policy: policy, error: nil))
    }

    /// `POST /lo/reset` (form `ticket`, `password`): checks the password against the policy (a
    /// weak one gets the form again, the ticket still live), takes the ticket (once), and sets the
    /// password. **[local]** Refresh tokens and login sessions stay as they are, as Auth0 leaves
    /// them when a password changes (revoking them is the Management API's).
    func reset(ticket: String?, password: Secret?) async -> BrowserResponse {
        guard let ticket else { return Self.badTicket }
        do {
            guard try await liveTicket(Secret(ticket)) != nil else { return Self.badTicket }
            guard let password else {
                return .page(
                    .badRequest, Self.resetForm(ticket: ticket, policy: policy, error: "Enter a new password."))
            }
            do {
                try services.checkPasswordStrength(password)
            } catch {
                return .page(
                    .badRequest,
                    Self.resetForm(ticket: ticket, policy: policy, error: "The password is too weak."))
            }
            guard
                let taken = try await store.take(
                    PasswordTicket.self, key: .digest(Secret(ticket).digest), at: clock.now()),
                try await store.user(id: taken.userID) != nil
            else { return Self.badTicket }
            try await services.setPassword(password, userID: taken.userID)
            return .page(
                .ok,
                HTMLPage.message(title: "Password changed", text: "Your password has been changed successfully."))
        } catch {
            services.logger.warning("A password reset failed: \(error.code.rawValue)")
            return .page(
                .serviceUnavailable,
                HTMLPage.message(title: "Reset password", text: "The password could not be changed; try again."))
        }
    }

    private var policy: PasswordPolicy { configuration.databaseConnection.passwordPolicy }

    private func liveTicket(_ ticket: Secret) async throws(TenantError) -> PasswordTicket? {
        try await store.peek(PasswordTicket.self, key: .digest(ticket.digest), at: clock.now())
    }

    /// The page of an unknown, expired or used ticket.
    static let badTicket = BrowserResponse.page(
        .badRequest,
        HTMLPage.message(
            title: "Reset password", text: "This link is invalid, expired or already used; ask for a new one."))

    /// The new-password form: the ticket as a hidden field, the policy shown, `error` above it.
    static func resetForm(ticket: String, policy: PasswordPolicy, error: String?) -> String {
        let escape = HTMLPage.escape
        let body = """
            <h1>Reset password</h1>
            <form id="reset-form" method="post" action="/lo/reset">
            <input type="hidden" name="ticket" value="\(escape(ticket))">
            <label for="password">New password</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required>
            <pre id="policy">\(escape(policy.text))</pre>
            <button id="reset" type="submit">Reset password</button>
            <p id="error" role="alert">\(escape(error ?? ""))</p>
            </form>
            """
        return HTMLPage.document(title: "Reset password", body: body)
    }
}
