public import PasskeyAuthenticator
public import WebAuthn

extension ControlService {
    /// The page script that answers a page's `navigator.credentials` with one virtual
    /// authenticator (the page bridge; `GET …/authenticator/{a}/bridge.js` serves it).
    ///
    /// The script carries a new capability for that authenticator alone: it can run ceremonies
    /// and signals there, from a page whose browser-set `Origin` is allowed, and nothing else (no
    /// listing or export of keys, no other authenticator or session). The capability lasts as
    /// long as the authenticator.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - endpoint: the base URL of the bridge routes as the page reaches them
    ///     (`http://127.0.0.1:PORT/bridge`).
    ///   - origins: the page origins that may use the script; any when `nil`.
    ///   - socket: the bridge socket's URL (`ws://127.0.0.1:PORT/bridge/socket`), which the script
    ///     uses instead of a request per command when it can connect; `fetch` alone when `nil`.
    ///   - policy: which of a browser's rules for frames the script enforces (``BridgePolicy``:
    ///     permissions policy and user activation, both by default).
    /// - Returns: the script, to evaluate in a page before its own scripts or after load.
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func bridgeScript(
        session: String, authenticator authenticatorID: String, endpoint: String, origins: [WebOrigin]? = nil,
        socket: String? = nil, policy: BridgePolicy = .enforced
    ) throws(ControlError) -> String {
        let virtual = try authenticator(session: session, authenticatorID)
        let (capability, key) = BridgeGrant.newCapability()
        bridgeGrants[key] = BridgeGrant(
            session: session, authenticatorID: authenticatorID, origins: origins.map { Set($0.map(\.description)) })
        return BridgeScript(
            endpoint: endpoint, socket: socket, capability: capability, client: client(virtual.authenticator),
            policy: policy
        ).text
    }

    /// A capability for a trusted relay of the page bridge: a browser extension's service worker,
    /// or the process driving the browser, which carries a page's requests when the page's own
    /// policy (Content-Security-Policy `connect-src`) forbids it to reach the server.
    ///
    /// The relay states each request's origin (and a frame's top-level origin), taken from the
    /// browser (`chrome.runtime` `sender.origin`, a WebDriver BiDi realm's origin, a Playwright
    /// binding's frame), never from the page's message: so it is never handed to a page. It is
    /// used with `POST /bridge/relay` or the bridge socket (`GET /bridge/socket`), and lasts as
    /// long as the authenticator.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - origins: the page origins the relay may state; any when `nil`.
    /// - Returns: the capability.
    /// - Throws: ``ControlError`` `invalid session id` or `invalid argument`.
    public func bridgeRelay(
        session: String, authenticator authenticatorID: String, origins: [WebOrigin]? = nil
    ) throws(ControlError) -> String {
        _ = try authenticator(session: session, authenticatorID)
        let (capability, key) = BridgeGrant.newCapability()
        bridgeGrants[key] = BridgeGrant(
            session: session, authenticatorID: authenticatorID, origins: origins.map { Set($0.map(\.description)) },
            relay: true)
        return capability
    }

    /// The grant of a bridge capability, used from `origin`.
    ///
    /// - Throws: ``ControlError``: `unauthorized` (401) for an unknown capability or one whose
    ///   authenticator is gone, `forbidden` (403) for an origin it was not handed to.
    func bridgeGrant(capability: String, origin: WebOrigin) throws(ControlError) -> BridgeGrant {
        guard let grant = bridgeGrants[BridgeGrant.key(capability)],
            sessions[grant.session]?.authenticators[grant.authenticatorID] != nil
        else {
            throw .unknownBridge
        }
        if let origins = grant.origins, !origins.contains(origin.description) {
            throw ControlError("forbidden", status: 403, "this bridge is not for pages of \(origin)")
        }
        return grant
    }

    /// Whether a capability is a relay's (it states origins) rather than a page's.
    ///
    /// - Throws: ``ControlError`` `unauthorized` (401) for an unknown capability or one whose
    ///   authenticator is gone.
    func bridgeGrantIsRelay(capability: String) throws(ControlError) -> Bool {
        guard let grant = bridgeGrants[BridgeGrant.key(capability)],
            sessions[grant.session]?.authenticators[grant.authenticatorID] != nil
        else {
            throw .unknownBridge
        }
        return grant.relay
    }

    /// A page's conditional get (WebAuthn L3 §5.1.4 with `mediation: "conditional"`): the origin
    /// and RP ID are checked at once, then the request waits until the test picks a passkey
    /// (``pickConditional(session:authenticator:choosing:timeout:)``), the page aborts it
    /// (``abortConditional(session:authenticator:requestID:)``), or the session or authenticator
    /// goes away.
    ///
    /// - Returns: the assertion, once picked, as ``get(session:authenticator:options:origin:topOrigin:choosing:)``
    ///   answers it.
    /// - Throws: ``ControlError``: `SecurityError` at once; `AbortError` when aborted; the
    ///   ceremony's refusal.
    public nonisolated func conditionalGet(
        session: String, authenticator authenticatorID: String, options: PublicKeyCredentialRequestOptionsJSON,
        origin: WebOrigin, topOrigin: WebOrigin? = nil, requestID: String
    ) async throws(ControlError) -> ClientAssertion {
        let virtual = try await authenticator(session: session, authenticatorID)
        let client = self.client(virtual.authenticator)
        let rpID: String
        do {
            rpID = try await client.relyingPartyID(options.rpId, for: origin)
        } catch {
            throw ControlError(error)
        }
        // Consent, when asked for, is asked at the pick (a person choosing from autofill), not
        // when the page sets autofill up: the pick's `get` asks.
        // A caller that cancels the wait (a server shutting down, a Swift caller) aborts the request.
        let outcome = await withTaskCancellationHandler {
            await waitForPick(session: session) { continuation in
                ConditionalRequest(
                    id: requestID, authenticatorID: authenticatorID, options: options, origin: origin,
                    topOrigin: topOrigin, rpID: rpID, continuation: continuation)
            }
        } onCancel: {
            Task { await abortConditional(session: session, authenticator: authenticatorID, requestID: requestID) }
        }
        return try outcome.get()
    }

    /// Picks a passkey for the oldest conditional get pending on an authenticator, as a person
    /// picks one from autofill: the ceremony runs with that choice, and its page gets the outcome.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - choice: the passkey picked; the most recent when `.mostRecent`.
    ///   - timeout: how long to wait for a page to ask, when none is pending yet.
    /// - Returns: the request and the assertion its page received.
    /// - Throws: ``ControlError``: `no such alert` (404) when no request was pending in time; the
    ///   ceremony's refusal (which the page received too).
    public nonisolated func pickConditional(
        session: String, authenticator authenticatorID: String, choosing choice: AccountChoice,
        timeout: Duration = .seconds(10)
    ) async throws(ControlError) -> ConditionalPick {
        let deadline = ContinuousClock.now + timeout
        while true {
            _ = try await authenticator(session: session, authenticatorID)
            if let request = await conditionalRequests(
                session: session, { $0.takeOldest(authenticatorID: authenticatorID) }) ?? nil
            {
                let outcome: Result<ClientAssertion, ControlError>
                do {
                    outcome = .success(
                        try await get(
                            session: session, authenticator: authenticatorID,
                            options: WebAuthnJSON.encode(request.options),
                            origin: request.origin, topOrigin: request.topOrigin, choosing: choice))
                } catch {
                    outcome = .failure(error)
                }
                request.continuation.resume(returning: outcome)
                let assertion = try outcome.get()
                guard let credential = try? assertion.response() else {
                    throw ControlError("unknown error", status: 500, "the assertion's JSON does not read back")
                }
                return ConditionalPick(
                    requestId: request.id, origin: request.origin.description, rpId: request.rpID,
                    credential: credential)
            }
            guard ContinuousClock.now < deadline else {
                throw ControlError(
                    "no such alert", status: 404,
                    "no conditional request of authenticator \(authenticatorID) is pending")
            }
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                // Cancelled: the server is stopping (not a busy wait until the deadline).
                throw ControlError("unknown error", status: 503, "the control server is stopping")
            }
        }
    }

    /// Queues a conditional request and waits for its outcome.
    private func waitForPick(
        session: String,
        _ request: (CheckedContinuation<Result<ClientAssertion, ControlError>, Never>) -> ConditionalRequest
    ) async -> Result<ClientAssertion, ControlError> {
        await withCheckedContinuation { continuation in
            let request = request(continuation)
            if conditionalRequests(session: session, { $0.enqueue(request) }) == nil {
                request.refuse(.invalidSession(session))
            }
        }
    }

    /// Ends a page's pending conditional request with `AbortError` (its `AbortSignal` fired, or
    /// the page went away). An abort that overtook its request is remembered, and the request is
    /// refused when it arrives.
    public func abortConditional(session: String, authenticator authenticatorID: String, requestID: String) {
        let aborted =
            conditionalRequests(session: session) { (queue: inout ConditionalQueue) -> [ConditionalRequest] in
                let aborted = queue.take { $0.authenticatorID == authenticatorID && $0.id == requestID }
                if aborted.isEmpty {
                    queue.rememberEarlyAbort(authenticatorID: authenticatorID, requestID: requestID)
                }
                return aborted
            } ?? []
        for request in aborted {
            request.refuse(ConditionalRequest.aborted)
        }
    }

    /// A relying party's signal from a page (WebAuthn L3 §5.1.11), carried out on the
    /// authenticator's credentials by `CredentialSignals`; each removed or renamed credential
    /// is reported as `credentialDeleted` or `credentialUpdated`.
    ///
    /// - Throws: ``ControlError``: `SecurityError` when the origin may not use the RP ID.
    public nonisolated func signal(
        _ signal: CredentialSignal, session: String, authenticator authenticatorID: String, origin: WebOrigin
    ) async throws(ControlError) {
        let (authenticator, events) = try await ceremonyParts(session: session, authenticatorID)
        let signals = CredentialSignals(store: authenticator.store)
        let changes: [CredentialSignals.Change]
        do {
            switch signal {
            case .unknownCredential(let rpID, let credentialID):
                changes = try await signals.unknownCredential(rpID: rpID, credentialID: credentialID, origin: origin)
            case .allAcceptedCredentials(let rpID, let userHandle, let accepted):
                changes = try await signals.allAcceptedCredentials(
                    rpID: rpID, userHandle: userHandle, accepted: accepted, origin: origin)
            case .currentUserDetails(let rpID, let userHandle, let name, let displayName):
                changes = try await signals.currentUserDetails(
                    rpID: rpID, userHandle: userHandle, name: name, displayName: displayName, origin: origin)
            }
        } catch {
            throw ControlError(error)
        }
        for change in changes {
            let credential = change.credential
            events.record(
                ControlEvent(
                    change.isDeletion ? .credentialDeleted : .credentialUpdated, authenticatorId: authenticatorID,
                    credentialId: credential.id, rpId: credential.rpID, origin: origin,
                    userHandle: credential.userHandle))
        }
    }
}

/// A relying party's signal (WebAuthn L3 §5.1.11), as a page sends it.
public enum CredentialSignal: Sendable, Hashable {
    /// `signalUnknownCredential({rpId, credentialId})`.
    case unknownCredential(rpID: String, credentialID: [UInt8])
    /// `signalAllAcceptedCredentials({rpId, userId, allAcceptedCredentialIds})`.
    case allAcceptedCredentials(rpID: String, userHandle: [UInt8], accepted: [[UInt8]])
    /// `signalCurrentUserDetails({rpId, userId, name, displayName})`.
    case currentUserDetails(rpID: String, userHandle: [UInt8], name: String, displayName: String)
}

extension CredentialSignals.Change {
    /// Whether the credential was removed.
    var isDeletion: Bool {
        if case .deleted = self { true } else { false }
    }
}
