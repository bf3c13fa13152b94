extension RelyingParty {
    /// Generates the options of a registration ceremony (WebAuthn L3 §5.4
    /// `PublicKeyCredentialCreationOptions`, in its JSON form §5.1.8), as py_webauthn's
    /// `generate_registration_options` and SimpleWebAuthn's `generateRegistrationOptions` do.
    ///
    /// The RP ID is the first of ``ids``. The defaults are those libraries': a new random
    /// challenge, every algorithm the relying party accepts in its order of preference, a
    /// discoverable credential preferred, the `credProps` extension (§10.1.3, so the response says
    /// whether the credential is discoverable), and a timeout of one minute. User verification is
    /// `required` when ``requireUserVerification`` is set, so that the client asks for what the
    /// verification will demand, and `preferred` otherwise.
    ///
    /// ```swift
    /// let generated = rp.generateRegistrationOptions(
    ///     rpName: "Example", user: user, excludeCredentials: records.map(\.descriptor))
    /// ```
    ///
    /// - Parameters:
    ///   - rpName: the relying party's name, for display only (§5.4.1).
    ///   - user: the account: its user handle (random, at most 64 bytes, no personal data:
    ///     §14.6.1), its name and display name.
    ///   - algorithms: the credential algorithms to offer, most preferred first (§5.4
    ///     `pubKeyCredParams`); by default ``allowedAlgorithms``. Registration refuses an
    ///     algorithm outside ``allowedAlgorithms`` whatever the options offered.
    ///   - excludeCredentials: the user's existing credentials (``CredentialRecord/descriptor``),
    ///     so that an authenticator holding one refuses to make another (§5.4
    ///     `excludeCredentials`); `nil` leaves the member out.
    ///   - residentKey: whether the credential should be discoverable (§5.4.6); `required` also
    ///     sets Level 1's `requireResidentKey` (§5.4.4).
    ///   - userVerification: whether the user must be verified (§5.8.6); `nil` for the policy's.
    ///   - authenticatorAttachment: the attachment to restrict to (§5.4.5), if any.
    ///   - attestation: the attestation wanted (§5.4.7); `nil` leaves the member out, which
    ///     clients read as `none`.
    ///   - hints: the kinds of authenticator to suggest, most preferred first (§5.8.8), if any.
    ///   - extensions: client extension inputs (§9); `credProps` by default.
    ///   - timeout: how long the relying party waits; `nil` leaves the member out.
    ///   - challenge: where the challenge comes from.
    /// - Returns: the options and the challenge to keep for ``verifyRegistration(_:challenge:at:)``.
    public func generateRegistrationOptions(
        rpName: String,
        user: PublicKeyCredentialUserEntityJSON,
        algorithms: [COSEAlgorithm]? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        residentKey: ResidentKeyRequirement = .preferred,
        userVerification: UserVerificationRequirement? = nil,
        authenticatorAttachment: AuthenticatorAttachment? = nil,
        attestation: AttestationConveyancePreference? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: AuthenticationExtensionsClientInputsJSON? = AuthenticationExtensionsClientInputsJSON(
            credProps: true),
        timeout: Duration? = .seconds(60),
        challenge: ChallengeGenerator = .secureRandom()
    ) -> RegistrationOptions {
        let bytes = challenge()
        let options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: rpName, id: ids.first),
            user: user,
            challenge: Base64URL(bytes),
            pubKeyCredParams: (algorithms ?? allowedAlgorithms).map { PublicKeyCredentialParameters(alg: $0.rawValue) },
            timeout: timeout.map(Self.milliseconds),
            excludeCredentials: excludeCredentials,
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: authenticatorAttachment, residentKey: residentKey,
                requireResidentKey: residentKey == .required,
                userVerification: userVerification ?? defaultUserVerification),
            hints: hints,
            attestation: attestation,
            extensions: extensions)
        return GeneratedOptions(options: options, challenge: bytes)
    }

    /// Generates the options of an authentication ceremony (WebAuthn L3 §5.5
    /// `PublicKeyCredentialRequestOptions`, in its JSON form §5.1.9), as py_webauthn's
    /// `generate_authentication_options` and SimpleWebAuthn's `generateAuthenticationOptions` do.
    ///
    /// The RP ID is the first of ``ids``. Without `allowCredentials` the authenticator chooses
    /// among its discoverable credentials and the response's user handle says whose it is: verify
    /// it with ``UserIdentification/byResponse``.
    ///
    /// ```swift
    /// let generated = rp.generateAuthenticationOptions(allowCredentials: records.map(\.descriptor))
    /// ```
    ///
    /// - Parameters:
    ///   - allowCredentials: the credentials that may answer, most preferred first (§5.5
    ///     `allowCredentials`); `nil` leaves the member out.
    ///   - userVerification: whether the user must be verified (§5.8.6); `nil` for the policy's:
    ///     `required` when ``requireUserVerification`` is set, else `preferred`.
    ///   - hints: the kinds of authenticator to suggest, most preferred first (§5.8.8), if any.
    ///   - extensions: client extension inputs (§9), if any.
    ///   - timeout: how long the relying party waits; `nil` leaves the member out.
    ///   - challenge: where the challenge comes from.
    /// - Returns: the options and the challenge to keep for
    ///   ``verifyAuthentication(_:challenge:credential:allowCredentials:userIdentified:)``.
    public func generateAuthenticationOptions(
        allowCredentials: [PublicKeyCredentialDescriptorJSON]? = nil,
        userVerification: UserVerificationRequirement? = nil,
        hints: [PublicKeyCredentialHint]? = nil,
        extensions: AuthenticationExtensionsClientInputsJSON? = nil,
        timeout: Duration? = .seconds(60),
        challenge: ChallengeGenerator = .secureRandom()
    ) -> AuthenticationOptions {
        let bytes = challenge()
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(bytes), timeout: timeout.map(Self.milliseconds), rpId: ids.first,
            allowCredentials: allowCredentials, userVerification: userVerification ?? defaultUserVerification,
            hints: hints, extensions: extensions)
        return GeneratedOptions(options: options, challenge: bytes)
    }

    /// What the options ask of user verification when the caller does not say: what the
    /// verification will demand (§5.8.6).
    private var defaultUserVerification: UserVerificationRequirement {
        requireUserVerification ? .required : .preferred
    }

    /// A timeout in whole milliseconds, as the options carry it; fractions dropped, clamped to
    /// `unsigned long`.
    private static func milliseconds(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? 0 : .max }
        return UInt32(clamping: milliseconds + attoseconds / 1_000_000_000_000_000)
    }
}
