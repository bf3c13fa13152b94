public import Auth0Passkeys
import WebAuthn

extension Tenant {
    /// The messages a local tenant sent `address` (any case), oldest first: its test outbox, `GET
    /// /test/outbox?to=ADDRESS` (**[local]**: `passkey tenant serve --test-outbox`). What a test
    /// reads a passwordless code or a link from, the way `passkey login --otp --code-from-outbox` does.
    ///
    /// ```swift
    /// try await tenant.authentication.startPasswordless(email: "ada@example.com").start()
    /// let code = try await tenant.outbox(to: "ada@example.com").last?.code
    /// ```
    ///
    /// - Parameter address: the email address or phone number.
    /// - Returns: the messages, newest last; none for an address with no live message.
    /// - Throws: ``PasskeyFlowError/transport(_:)`` when the tenant cannot be reached;
    ///   ``PasskeyFlowError/user(_:)`` with `no_outbox` when it serves no outbox (404: an Auth0
    ///   tenant, or a local one without `--test-outbox`), `unexpected` for another answer.
    public func outbox(to address: String) async throws(PasskeyFlowError) -> [OutboxMessage] {
        let url = baseURL + "test/outbox?to=" + PercentEncoding.encode(address)
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(method: .get, url: url, headers: [(name: "Accept", value: "application/json")]))
        } catch {
            throw .transport(error)
        }
        guard response.status != 404 else {
            throw .user(
                VirtualUserError(
                    .noOutbox, "the tenant serves no outbox (a local tenant serves one with --test-outbox)"))
        }
        guard response.status == 200,
            let messages = try? WebAuthnJSON.decode([OutboxMessage].self, from: response.body)
        else {
            throw .user(VirtualUserError(.unexpected, "the outbox answered \(response.status), not a list of messages"))
        }
        return messages
    }

    /// The newest one-time code the local tenant sent `address`, from its test outbox (``outbox(to:)``).
    ///
    /// - Parameter address: the email address or phone number.
    /// - Returns: the code.
    /// - Throws: as ``outbox(to:)``; ``PasskeyFlowError/user(_:)`` with `no_outbox` when no
    ///   message to `address` carries a code.
    public func latestCode(sentTo address: String) async throws(PasskeyFlowError) -> String {
        guard let code = try await outbox(to: address).last(where: { $0.code != nil })?.code else {
            throw .user(VirtualUserError(.noOutbox, "the outbox holds no code for \(address)"))
        }
        return code
    }
}
