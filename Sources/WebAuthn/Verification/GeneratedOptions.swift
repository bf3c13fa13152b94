/// The options of one ceremony as a relying party generated them, with the challenge it must keep
/// until the response comes back: §7.1 step 8 and §7.2 step 12 of WebAuthn L3 compare client
/// data's `challenge` with it.
///
/// ```swift
/// let generated = rp.generateAuthenticationOptions()
/// // send WebAuthnJSON.encode(generated.options); keep generated.challenge with the session
/// ```
public struct GeneratedOptions<Options: Sendable & Hashable>: Sendable, Hashable {
    /// The options to send, as `PublicKeyCredential.parseCreationOptionsFromJSON()` or
    /// `parseRequestOptionsFromJSON()` reads them (WebAuthn L3 §5.1.8, §5.1.9).
    public let options: Options
    /// The challenge the options carry, to pass to the verification of the response.
    public let challenge: [UInt8]
}

/// Registration options (WebAuthn L3 §5.4) and their challenge.
public typealias RegistrationOptions = GeneratedOptions<PublicKeyCredentialCreationOptionsJSON>

/// Authentication options (WebAuthn L3 §5.5) and their challenge.
public typealias AuthenticationOptions = GeneratedOptions<PublicKeyCredentialRequestOptionsJSON>
