package import Logging

/// What every Auth0 client shares: the transport, the retry policy, the `Auth0-Client` header
/// and the logger. Sends one logical request, retrying it when that is safe (``RetryPolicy``).
package struct HTTPClient: Sendable {
    package var transport: any HTTPTransport
    package var retryPolicy: RetryPolicy
    package var clientInfo: Auth0ClientInfo?
    package var logger: Logger
    /// Waits between attempts; `Task.sleep` outside tests.
    package var sleep: @Sendable (Duration) async throws -> Void
    /// A number in `0...1` for the retry jitter.
    package var jitter: @Sendable () -> Double

    package init(
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = RetryPolicy(),
        clientInfo: Auth0ClientInfo? = Auth0ClientInfo(),
        logger: Logger? = nil,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.clientInfo = clientInfo
        self.logger = logger ?? Logger(label: "Auth0Passkeys", factory: { _ in SwiftLogNoOpLogHandler() })
        self.sleep = sleep
        self.jitter = jitter
    }

    /// The headers every request carries (spec §8): `Content-Type` (even on GET and DELETE) and
    /// `Auth0-Client` unless disabled.
    package var standardHeaders: [(name: String, value: String)] {
        var headers = [(name: "Content-Type", value: "application/json")]
        if let clientInfo { headers.append((name: "Auth0-Client", value: clientInfo.headerValue)) }
        return headers
    }

    /// Sends `request`, again after a retryable failure when `retryable` allows it.
    ///
    /// With a `dpop` signer, each attempt carries a fresh proof, every response's `DPoP-Nonce` is
    /// kept, and an answer asking for a nonce (`use_dpop_nonce`, RFC 9449 §8, §9) is followed by
    /// one more exchange whose proof carries it (spec §16.3), whether or not `retryable`.
    ///
    /// - Returns: the last response, which may be an error status.
    /// - Throws: the last ``TransportError`` when no attempt produced a response, or
    ///   ``TransportError/Code/other`` when no proof could be signed.
    package func perform(_ request: HTTPRequest, retryable: Bool, dpop: DPoPSigner? = nil) async throws(TransportError)
        -> HTTPResponse
    {
        let response = try await performAttempts(request, retryable: retryable, dpop: dpop)
        guard let dpop, dpop.signs(request), DPoPChallenge.requiresNonce(response), dpop.dpop.nonce != nil else {
            return response
        }
        logger.debug(
            "retrying with a DPoP nonce",
            metadata: ["http.method": "\(request.method.rawValue)", "http.path": "\(request.path)"])
        return try await performAttempts(request, retryable: retryable, dpop: dpop)
    }

    private func performAttempts(_ request: HTTPRequest, retryable: Bool, dpop: DPoPSigner?)
        async throws(TransportError) -> HTTPResponse
    {
        var attempt = 0
        while true {
            let sent = try await dpop?.prepared(request) ?? request
            let outcome = await attemptOnce(sent, attempt: attempt)
            if case .success(let response) = outcome { dpop?.dpop.nonces.record(response) }
            let retryAfter: Duration?
            switch outcome {
            case .success(let response):
                guard retryable, response.status == 429 || (500...599).contains(response.status) else {
                    return response
                }
                retryAfter = RetryPolicy.retryAfter(response.header("Retry-After"))
            case .failure(let error):
                guard retryable, error.isNetworkError else { throw error }
                retryAfter = nil
            }
            guard let delay = retryPolicy.delay(beforeRetry: attempt, retryAfter: retryAfter, jitter: jitter()) else {
                return try outcome.get()
            }
            logger.debug(
                "retrying",
                metadata: [
                    "http.method": "\(request.method.rawValue)", "http.path": "\(request.path)",
                    "retry.attempt": "\(attempt + 1)", "retry.delay_ms": "\(delay.milliseconds)",
                ])
            do {
                try await sleep(delay)
            } catch {
                throw TransportError(.cancelled, "cancelled while waiting to retry")
            }
            attempt += 1
        }
    }

    private func attemptOnce(_ request: HTTPRequest, attempt: Int) async -> Result<HTTPResponse, TransportError> {
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method.rawValue)", "http.path": "\(request.path)",
            "http.request.size": "\(request.body?.count ?? 0)",
        ]
        if attempt > 0 { metadata["retry.attempt"] = "\(attempt)" }
        logger.trace(
            "request headers: \(WireRedactor.redact(headers: request.headers))", metadata: metadata)
        if let body = request.body {
            logger.trace("request body: \(WireRedactor.redact(body: body))", metadata: metadata)
        }
        let clock = ContinuousClock()
        let start = clock.now
        let result: Result<HTTPResponse, TransportError>
        do {
            result = .success(try await transport.send(request))
        } catch {
            result = .failure(error)
        }
        metadata["duration_ms"] = "\((clock.now - start).milliseconds)"
        switch result {
        case .success(let response):
            metadata["http.status"] = "\(response.status)"
            metadata["http.response.size"] = "\(response.body.count)"
            logger.debug("\(request.method.rawValue) \(request.path) → \(response.status)", metadata: metadata)
            logger.trace("response headers: \(WireRedactor.redact(headers: response.headers))", metadata: metadata)
            logger.trace("response body: \(WireRedactor.redact(body: response.body))", metadata: metadata)
        case .failure(let error):
            metadata["error"] = "\(error)"
            logger.debug("\(request.method.rawValue) \(request.path) failed", metadata: metadata)
        }
        return result
    }
}

extension Duration {
    /// Whole milliseconds, for logs.
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
