import Hummingbird
import PasskeyAuthenticator
import ServiceLifecycle
import WebAuthn

extension ControlServer {
    /// Runs one page-bridge command, however it came (a page's `POST /bridge/ROUTE`, a relay's
    /// `POST /bridge/relay`, a bridge socket message), and answers its `value`.
    ///
    /// - Parameters:
    ///   - route: the command.
    ///   - body: its JSON body: `{options, requestId, mediation?, topOrigin?}` for a ceremony,
    ///     `{requestId}` for an abort, `{kind, options}` for a signal.
    ///   - caller: the capability's grant and the origins.
    /// - Returns: the credential's JSON for a ceremony (WebAuthn L3 §5.1.8's
    ///   `RegistrationResponseJSON` / `AuthenticationResponseJSON`), `null` otherwise.
    /// - Throws: ``ControlError``: the ceremony's refusal as the `DOMException` name a browser
    ///   gives (`NotAllowedError`, `SecurityError`, …), `SyntaxError` for options that do not
    ///   read, `invalid argument` for a malformed abort or signal.
    func bridgeCommand(_ route: BridgeRoute, _ body: BridgeBody, caller: BridgeCaller) async throws(ControlError)
        -> JSONText
    {
        let (session, authenticator, origin) = (caller.grant.session, caller.grant.authenticatorID, caller.origin)
        switch route {
        case .create:
            let request = try body.ceremony(BridgeRequest<PublicKeyCredentialCreationOptionsJSON>.self)
            _ = try request.id()
            let credential = try await service.create(
                session: session, authenticator: authenticator, options: request.options, origin: origin,
                topOrigin: caller.topOrigin(claimed: request.topOrigin), mediation: request.credentialMediation())
            return JSONText(WebAuthnJSON.encode(credential))
        case .get:
            let request = try body.ceremony(BridgeRequest<JSONText>.self)
            let requestID = try request.id()
            let topOrigin = try caller.topOrigin(claimed: request.topOrigin)
            guard try request.credentialMediation() == .conditional else {
                return JSONText(
                    try await service.get(
                        session: session, authenticator: authenticator, options: request.options.bytes,
                        origin: origin, topOrigin: topOrigin
                    ).json)
            }
            let options = try BridgeBody(bytes: request.options.bytes).ceremony(
                PublicKeyCredentialRequestOptionsJSON.self)
            return JSONText(
                try await conditionalGet(
                    session: session, authenticator: authenticator, options: options, origin: origin,
                    topOrigin: topOrigin, requestID: requestID
                ).json)
        case .abort:
            guard let requestID = try body.decode([String: JSONValue].self)["requestId"]?.stringValue else {
                throw ControlError.invalidArgument("requestId is required")
            }
            await service.abortConditional(session: session, authenticator: authenticator, requestID: requestID)
            return JSONText(Array("null".utf8))
        case .signal:
            let request = try body.decode(BridgeSignalRequest.self)
            try await service.signal(request.signal(), session: session, authenticator: authenticator, origin: origin)
            return JSONText(Array("null".utf8))
        }
    }

    /// A conditional get (WebAuthn L3 §5.1.4, `mediation: "conditional"`) that waits for a pick;
    /// a server that is stopping aborts it, so that it can stop.
    private func conditionalGet(
        session: String, authenticator: String, options: PublicKeyCredentialRequestOptionsJSON, origin: WebOrigin,
        topOrigin: WebOrigin?, requestID: String
    ) async throws(ControlError) -> ClientAssertion {
        let service = service
        let outcome: Result<ClientAssertion, ControlError> = await withGracefulShutdownHandler {
            do throws(ControlError) {
                return .success(
                    try await service.conditionalGet(
                        session: session, authenticator: authenticator, options: options, origin: origin,
                        topOrigin: topOrigin, requestID: requestID))
            } catch {
                return .failure(error)
            }
        } onGracefulShutdown: {
            Task {
                await service.abortConditional(session: session, authenticator: authenticator, requestID: requestID)
            }
        }
        return try outcome.get()
    }
}
