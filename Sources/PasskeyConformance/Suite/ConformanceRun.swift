public import WebAuthn

/// One run of the suite against one server: the target, the origin the forged client data claim,
/// what the server was told (the runner's root, its metadata), and the ceremonies every test is
/// built from.
public struct ConformanceRun: Sendable {
    /// The server.
    public let target: any ConformanceTarget
    /// What the run may assume of the server.
    public let configuration: ConformanceConfiguration
    /// The runner's PKI, whose root signs every good attestation chain.
    public let pki: ConformancePKI

    /// A run.
    public init(target: any ConformanceTarget, configuration: ConformanceConfiguration, pki: ConformancePKI) {
        self.target = target
        self.configuration = configuration
        self.pki = pki
    }

    /// A user name no other test used.
    public func newUsername() -> String {
        "conformance-\(Hex.encode(SecureRandom.bytes(6)))@example.org"
    }

    // MARK: Registration

    /// Asks for creation options (`POST /attestation/options`).
    public func creationOptions(
        username: String, userVerification: UserVerificationRequirement = .preferred,
        attestation: AttestationConveyancePreference = .direct, residentKey: ResidentKeyRequirement = .preferred
    ) async throws(ConformanceError) -> (answer: ConformanceAnswer, options: PublicKeyCredentialCreationOptionsJSON) {
        let request = JSONValue.object([
            "username": .string(username), "displayName": .string("Conformance \(username.prefix(18))"),
            "authenticatorSelection": .object([
                "residentKey": .string(residentKey.rawValue), "requireResidentKey": .bool(residentKey == .required),
                "userVerification": .string(userVerification.rawValue),
            ]),
            "attestation": .string(attestation.rawValue),
        ])
        let answer = try await target.send(.attestationOptions, request, after: nil)
        guard answer.accepted, let options = answer.options else {
            throw ConformanceError(.badOptions, "the server refused to give creation options: \(answer.summary)")
        }
        do {
            return (answer, try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: options.json))
        } catch {
            throw ConformanceError(.badOptions, "the creation options do not parse: \(error.reason)")
        }
    }

    /// Registers a credential made by ``RegistrationForgery``: asks for options, forges the
    /// credential they ask for, lets `forge` break it, and sends it (`POST /attestation/result`).
    ///
    /// - Parameters:
    ///   - username: the user to register; a new one by default.
    ///   - userVerification: the user verification the options request asks for.
    ///   - attestation: the attestation conveyance the options request asks for.
    ///   - algorithm: the credential's algorithm; a test is skipped when the options do not offer it.
    ///   - forge: changes the ceremony before the attestation is signed.
    /// - Returns: the registration and the server's verdict on it.
    public func register(
        username: String? = nil, userVerification: UserVerificationRequirement = .preferred,
        attestation: AttestationConveyancePreference = .direct, algorithm: COSEAlgorithm = .es256,
        _ forge: (inout RegistrationForgery) throws(ConformanceError) -> Void = { _ throws(ConformanceError) in }
    ) async throws(ConformanceError) -> Registration {
        let username = username ?? newUsername()
        let (answer, options) = try await creationOptions(
            username: username, userVerification: userVerification, attestation: attestation)
        guard options.pubKeyCredParams.contains(where: { $0.alg == algorithm.rawValue }) else {
            throw ConformanceError(.skipped, "the server does not offer \(algorithm)")
        }
        var forgery = try RegistrationForgery(
            options: options, algorithm: algorithm, origin: configuration.origin,
            rpID: options.rp.id ?? configuration.rpID)
        try forge(&forgery)
        let credential = try forgery.credential(pki)
        let verdict = try await target.send(.attestationResult, credential, after: answer)
        return Registration(
            username: username, userHandle: options.user.id.bytes, options: options, ceremony: forgery.ceremony,
            verdict: verdict)
    }

    /// Registers a good credential that a later step needs, and fails the test when the server
    /// refuses it.
    public func registered(
        username: String? = nil, algorithm: COSEAlgorithm = .es256,
        _ forge: (inout RegistrationForgery) throws(ConformanceError) -> Void = { _ throws(ConformanceError) in }
    ) async throws(ConformanceError) -> Registration {
        let registration = try await register(username: username, algorithm: algorithm, forge)
        guard registration.verdict.accepted else {
            throw ConformanceError(
                .wrongVerdict, "the server refused a valid registration the test needs: \(registration.verdict.summary)"
            )
        }
        return registration
    }

    // MARK: Authentication

    /// Asks for request options (`POST /assertion/options`).
    public func requestOptions(username: String, userVerification: UserVerificationRequirement = .preferred)
        async throws(ConformanceError) -> (answer: ConformanceAnswer, options: PublicKeyCredentialRequestOptionsJSON)
    {
        let request = JSONValue.object([
            "username": .string(username), "userVerification": .string(userVerification.rawValue),
        ])
        let answer = try await target.send(.assertionOptions, request, after: nil)
        guard answer.accepted, let options = answer.options else {
            throw ConformanceError(.badOptions, "the server refused to give request options: \(answer.summary)")
        }
        do {
            return (answer, try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: options.json))
        } catch {
            throw ConformanceError(.badOptions, "the request options do not parse: \(error.reason)")
        }
    }

    /// Authenticates with a registered credential: asks for options, signs an assertion for
    /// them, lets `forge` break it, and sends it (`POST /assertion/result`).
    ///
    /// - Returns: the server's verdict.
    public func authenticate(
        _ registration: Registration, userVerification: UserVerificationRequirement = .preferred,
        _ forge: (inout AssertionForgery) throws(ConformanceError) -> Void = { _ throws(ConformanceError) in }
    ) async throws(ConformanceError) -> ConformanceAnswer {
        let (answer, options) = try await requestOptions(
            username: registration.username, userVerification: userVerification)
        var forgery = AssertionForgery(registration: registration, options: options)
        try forge(&forgery)
        return try await target.send(.assertionResult, try forgery.credential(), after: answer)
    }

    /// Authenticates, and fails the test when the server refuses this good assertion.
    public func authenticated(
        _ registration: Registration,
        _ forge: (inout AssertionForgery) throws(ConformanceError) -> Void = { _ throws(ConformanceError) in }
    ) async throws(ConformanceError) {
        let verdict = try await authenticate(registration, forge)
        guard verdict.accepted else {
            throw ConformanceError(
                .wrongVerdict, "the server refused a valid assertion the test needs: \(verdict.summary)")
        }
    }
}

/// What a run may assume of the server.
public struct ConformanceConfiguration: Sendable, Hashable {
    /// The origin forged client data claim (`https://rp.example`).
    public var origin: String
    /// The RP ID when the options do not name one: by default the origin's host.
    public var rpID: String
    /// Whether the server trusts the runner's root (given to it, or through the metadata
    /// service): chains that end elsewhere, or that expired, must then be refused.
    public var trustsRoot: Bool
    /// Whether the server reads the runner's metadata service, so that it must refuse the models
    /// whose status says compromised.
    public var usesMetadata: Bool

    /// A configuration.
    ///
    /// - Throws: `bad-map` when `origin` is not an origin.
    public init(origin: String, rpID: String? = nil, trustsRoot: Bool = false, usesMetadata: Bool = false)
        throws(ConformanceError)
    {
        do {
            let parsed = try WebOrigin(origin)
            self.origin = parsed.description
            self.rpID = rpID ?? parsed.host
        } catch {
            throw ConformanceError(.badMap, "\(origin) is not an origin: \(error.reason)")
        }
        self.trustsRoot = trustsRoot || usesMetadata
        self.usesMetadata = usesMetadata
    }
}

/// A registration the run made, and the server's verdict on it.
public struct Registration: Sendable {
    public let username: String
    /// The user handle the options gave (`user.id`).
    public let userHandle: [UInt8]
    public let options: PublicKeyCredentialCreationOptionsJSON
    /// The ceremony: its key and credential ID sign the assertions that follow.
    public let ceremony: HandmadeCeremony
    public let verdict: ConformanceAnswer
}

extension ConformanceAnswer {
    /// The status and message, for a report line.
    public var summary: String {
        message.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(message)"
    }
}
