import WebAuthn

/// A registration and an assertion made by hand with a fresh ES256 key, every field open to
/// change, so that a test can break exactly one step of WebAuthn L3 §7.1 or §7.2.
struct HandmadeCeremony {
    var rpID = "example.org"
    var origin = "https://example.org"
    var flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backupState]
    var signCount: UInt32 = 0
    var format = AttestationFormat.none
    var statement: CBOR = [:]
    var crossOrigin = false
    var topOrigin: String?
    /// The ceremony type client data claims; `nil` for the right one.
    var claimedType: CollectedClientData.CeremonyType?
    /// The challenge client data carries; `nil` for the one issued.
    var claimedChallenge: [UInt8]?
    /// Client data bytes to send instead of the well-formed ones.
    var rawClientData: [UInt8]?
    var credentialID = SecureRandom.bytes(16)
    let key: SigningKey
    let challenge = SecureRandom.bytes(32)

    init() throws {
        key = try SigningKey.generate(.es256)
    }

    func clientData(_ type: CollectedClientData.CeremonyType) -> [UInt8] {
        rawClientData
            ?? CollectedClientData(
                type: claimedType ?? type, challenge: claimedChallenge ?? challenge, origin: origin,
                crossOrigin: crossOrigin, topOrigin: topOrigin
            ).bytes
    }

    func authenticatorData() throws -> AuthenticatorData {
        AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array(rpID.utf8)), flags: flags, signCount: signCount,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: .zero, credentialID: credentialID, publicKey: key.publicKey))
    }

    func attestationObject() throws -> [UInt8] {
        AttestationObject(format: format, statement: statement, authenticatorData: try authenticatorData()).bytes
    }

    /// Makes the statement packed self attestation, signed over these authenticator data and
    /// `signedClientData` (by default the client data sent).
    mutating func attestSelf(signedClientData: [UInt8]? = nil) throws {
        format = .packed
        let hash = SHA256Digest.hash(signedClientData ?? clientData(.create))
        let signature = try key.signature(for: authenticatorData().bytes + hash)
        statement = PackedAttestationStatement(algorithm: .es256, signature: signature).cbor
    }

    func register(_ relyingParty: RelyingParty = .init(id: "example.org")) throws -> VerifiedRegistration {
        try relyingParty.verifyRegistration(
            clientDataJSON: clientData(.create), attestationObject: attestationObject(), challenge: challenge)
    }

    /// An assertion over this ceremony's client data, signed by the credential key over
    /// `signedClientData` (by default the client data sent).
    func assert(
        _ relyingParty: RelyingParty = .init(id: "example.org"), record: CredentialRecord? = nil,
        userHandle: [UInt8]? = nil, allowCredentials: [[UInt8]] = [],
        userIdentified: UserIdentification = .beforeCeremony, signedClientData: [UInt8]? = nil
    ) throws -> VerifiedAuthentication {
        let clientData = clientData(.get)
        let authData = AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array(rpID.utf8)), flags: flags, signCount: signCount)
        let signature = try key.signature(for: authData.bytes + SHA256Digest.hash(signedClientData ?? clientData))
        return try relyingParty.verifyAuthentication(
            credentialID: credentialID, clientDataJSON: clientData, authenticatorData: authData.bytes,
            signature: signature, userHandle: userHandle, challenge: challenge,
            credential: record ?? CredentialRecord(id: credentialID, publicKey: key.publicKey.bytes),
            allowCredentials: allowCredentials, userIdentified: userIdentified)
    }
}
