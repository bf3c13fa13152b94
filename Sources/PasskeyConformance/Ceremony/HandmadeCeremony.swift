public import WebAuthn

/// A registration and an assertion made by hand with a fresh key, every field open to change, so
/// that a test can break exactly one step of WebAuthn L3 §7.1 or §7.2, in process or as the JSON
/// a client would send to a relying party's server.
public struct HandmadeCeremony: Sendable {
    public var rpID = "example.org"
    public var origin = "https://example.org"
    public var flags: AuthenticatorFlags = [.userPresent, .userVerified, .backupEligible, .backupState]
    public var signCount: UInt32 = 0
    public var format = AttestationFormat.none
    public var statement: CBOR = [:]
    public var crossOrigin = false
    public var topOrigin: String?
    /// The ceremony type client data claims; `nil` for the right one.
    public var claimedType: CollectedClientData.CeremonyType?
    /// The challenge client data carries; `nil` for the one issued.
    public var claimedChallenge: [UInt8]?
    /// Client data bytes to send instead of the well-formed ones.
    public var rawClientData: [UInt8]?
    /// Attestation object bytes to send instead of the well-formed ones.
    public var rawAttestationObject: [UInt8]?
    /// The RP ID whose hash authenticator data carries; `nil` for ``rpID``.
    public var claimedRPID: String?
    /// The AAGUID attested credential data carries: the authenticator model a registration claims.
    public var aaguid = AAGUID.zero
    public var credentialID = SecureRandom.bytes(16)
    public var key: SigningKey
    /// The challenge issued.
    public var challenge = SecureRandom.bytes(32)

    /// A ceremony with a fresh key of `algorithm`.
    public init(_ algorithm: COSEAlgorithm = .es256) throws {
        key = try SigningKey.generate(algorithm)
    }

    public func clientData(_ type: CollectedClientData.CeremonyType) -> [UInt8] {
        rawClientData
            ?? CollectedClientData(
                type: claimedType ?? type, challenge: claimedChallenge ?? challenge, origin: origin,
                crossOrigin: crossOrigin, topOrigin: topOrigin
            ).bytes
    }

    private var rpIDHash: [UInt8] { SHA256Digest.hash(Array((claimedRPID ?? rpID).utf8)) }

    public func authenticatorData() throws -> AuthenticatorData {
        AuthenticatorData(
            rpIDHash: rpIDHash, flags: flags, signCount: signCount,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: aaguid, credentialID: credentialID, publicKey: key.publicKey))
    }

    public func attestationObject() throws -> [UInt8] {
        try rawAttestationObject
            ?? AttestationObject(format: format, statement: statement, authenticatorData: authenticatorData()).bytes
    }

    /// This ceremony's `none` attestation object with one byte more of credential ID than its
    /// length allows (1024, §7.1 step 25): the ID is 1023 bytes long, and the length field is changed.
    public func attestationObjectWithOverlongCredentialID() throws -> [UInt8] {
        var ceremony = self
        ceremony.credentialID = SecureRandom.bytes(1023)
        var authData = try ceremony.authenticatorData().bytes
        let lengthOffset = 32 + 1 + 4 + 16
        authData.replaceSubrange(lengthOffset..<lengthOffset + 2, with: [0x04, 0x00])
        authData.insert(0x00, at: lengthOffset + 2)
        let object: CBOR = ["fmt": "none", "attStmt": [:], "authData": .bytes(authData)]
        return object.encoded()
    }

    /// Makes the statement packed self attestation, signed over these authenticator data and
    /// `signedClientData` (by default the client data sent).
    public mutating func attestSelf(signedClientData: [UInt8]? = nil) throws {
        format = .packed
        let hash = SHA256Digest.hash(signedClientData ?? clientData(.create))
        let signature = try key.signature(for: authenticatorData().bytes + hash)
        statement = PackedAttestationStatement(algorithm: key.algorithm, signature: signature).cbor
    }

    /// Makes the statement packed attestation with a certificate path: `signer` (the key of
    /// `x5c[0]`) signs these authenticator data and the client data sent (WebAuthn L3 §8.2).
    public mutating func attestPacked(x5c: [[UInt8]], signer: SigningKey) throws {
        format = .packed
        let signature = try signer.signature(for: authenticatorData().bytes + SHA256Digest.hash(clientData(.create)))
        statement =
            PackedAttestationStatement(algorithm: signer.algorithm, signature: signature, certificates: x5c).cbor
    }

    public func register(_ relyingParty: RelyingParty = .init(id: "example.org")) throws -> VerifiedRegistration {
        try relyingParty.verifyRegistration(
            clientDataJSON: clientData(.create), attestationObject: attestationObject(), challenge: challenge)
    }

    /// The registration as `PublicKeyCredential.toJSON()` gives it.
    public func registrationJSON() throws -> RegistrationResponseJSON {
        try RegistrationResponseJSON(
            rawId: Base64URL(credentialID),
            response: AuthenticatorAttestationResponseJSON(
                clientDataJSON: Base64URL(clientData(.create)), attestationObject: Base64URL(attestationObject())))
    }

    /// An assertion's parts: client data, authenticator data and the credential key's signature
    /// over `signedClientData` (by default the client data sent).
    public func assertion(signedClientData: [UInt8]? = nil) throws -> (
        clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8]
    ) {
        let clientData = clientData(.get)
        let authData = AuthenticatorData(rpIDHash: rpIDHash, flags: flags, signCount: signCount).bytes
        let signature = try key.signature(for: authData + SHA256Digest.hash(signedClientData ?? clientData))
        return (clientData, authData, signature)
    }

    /// An assertion over this ceremony's client data, verified by `relyingParty`.
    public func assert(
        _ relyingParty: RelyingParty = .init(id: "example.org"), record: CredentialRecord? = nil,
        userHandle: [UInt8]? = nil, allowCredentials: [[UInt8]] = [],
        userIdentified: UserIdentification = .beforeCeremony, signedClientData: [UInt8]? = nil
    ) throws -> VerifiedAuthentication {
        let (clientData, authData, signature) = try assertion(signedClientData: signedClientData)
        return try relyingParty.verifyAuthentication(
            credentialID: credentialID, clientDataJSON: clientData, authenticatorData: authData,
            signature: signature, userHandle: userHandle, challenge: challenge,
            credential: record ?? CredentialRecord(id: credentialID, publicKey: key.publicKey.bytes),
            allowCredentials: allowCredentials, userIdentified: userIdentified)
    }

    /// The assertion as `PublicKeyCredential.toJSON()` gives it.
    public func assertionJSON(userHandle: [UInt8]?, signedClientData: [UInt8]? = nil) throws
        -> AuthenticationResponseJSON
    {
        let (clientData, authData, signature) = try assertion(signedClientData: signedClientData)
        return AuthenticationResponseJSON(
            rawId: Base64URL(credentialID),
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: Base64URL(clientData), authenticatorData: Base64URL(authData),
                signature: Base64URL(signature), userHandle: userHandle.map(Base64URL.init)))
    }
}
