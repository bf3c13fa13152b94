import Foundation
import PasskeyAuthenticator
import WebAuthn

/// A relying party at `https://example.com` running real ceremonies against a client, and
/// verifying every response with the core's verifier.
struct Ceremony {
    static let origin = try! WebOrigin("https://example.com")
    let relyingParty: RelyingParty
    let client: WebAuthnClient

    init(_ authenticator: any Authenticator, relyingParty: RelyingParty = RelyingParty(id: "example.com")) {
        client = WebAuthnClient(authenticator: authenticator)
        self.relyingParty = relyingParty
    }

    /// A ceremony with the software authenticator over `store`, running `profile` as far as the
    /// store's keys allow.
    init(store: any CredentialStore, profile: AuthenticatorProfile) {
        self.init(SoftwareAuthenticator(store: store, profile: profile.narrowed(for: store)))
    }

    static func creationOptions(
        user: String = "alice", userID: [UInt8] = Array("user-alice".utf8), algorithms: [COSEAlgorithm] = [.es256],
        attestation: AttestationConveyancePreference? = nil, residentKey: ResidentKeyRequirement? = .required,
        userVerification: UserVerificationRequirement? = nil, exclude: [[UInt8]] = [],
        extensions: AuthenticationExtensionsClientInputsJSON? = nil
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.com"),
            user: PublicKeyCredentialUserEntityJSON(id: Base64URL(userID), name: user, displayName: user.capitalized),
            challenge: Base64URL(SecureRandom.bytes(32)),
            pubKeyCredParams: algorithms.map { PublicKeyCredentialParameters(alg: $0.rawValue) },
            excludeCredentials: exclude.map { PublicKeyCredentialDescriptorJSON(id: Base64URL($0)) },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                residentKey: residentKey, userVerification: userVerification),
            attestation: attestation, extensions: extensions)
    }

    static func requestOptions(
        allow: [[UInt8]] = [], userVerification: UserVerificationRequirement? = nil
    ) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(SecureRandom.bytes(32)), rpId: "example.com",
            allowCredentials: allow.map { PublicKeyCredentialDescriptorJSON(id: Base64URL($0)) },
            userVerification: userVerification)
    }

    /// Registers through the client and verifies the response as the relying party would.
    func register(_ options: PublicKeyCredentialCreationOptionsJSON = creationOptions()) async throws
        -> (RegistrationResponseJSON, VerifiedRegistration)
    {
        let response = try await client.create(options, origin: Self.origin)
        let verified = try relyingParty.verifyRegistration(response, challenge: options.challenge.bytes)
        return (response, verified)
    }

    /// Signs in through the client and verifies the assertion against `record`.
    func authenticate(_ record: CredentialRecord, options: PublicKeyCredentialRequestOptionsJSON = requestOptions())
        async throws -> (AuthenticationResponseJSON, VerifiedAuthentication)
    {
        let response = try await client.get(options, origin: Self.origin)
        let verified = try relyingParty.verifyAuthentication(
            response, challenge: options.challenge.bytes, credential: record,
            allowCredentials: options.allowCredentials?.map(\.id.bytes) ?? [])
        return (response, verified)
    }
}
