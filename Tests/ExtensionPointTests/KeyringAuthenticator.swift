import PasskeyAuthenticator
import WebAuthn

/// `Authenticator` implemented outside the package: a roaming key with its own keyring, keys made
/// and used through WebAuthn's public `SigningKey`, every passkey discoverable, a counter per
/// passkey and "none" attestation (CTAP 2.1 §6.1.2, §6.2.2; WebAuthn L3 §6.1, §8.7). It shares
/// no code with `SoftwareAuthenticator` and has no `CredentialStore`.
struct KeyringAuthenticator: Authenticator {
    /// The passkeys, shared by copies of the authenticator.
    let keyring = Keyring()

    var info: AuthenticatorInfo {
        AuthenticatorInfo(
            aaguid: .zero, attachment: .crossPlatform, transports: [.usb], algorithms: [.es256, .eddsa],
            supportsResidentKeys: true, supportsUserVerification: true, extensions: [])
    }

    func makeCredential(_ request: MakeCredentialRequest) async throws(AuthenticatorError) -> MakeCredentialResponse {
        if await keyring.holdsAny(of: request.excludeList, rpID: request.rpID) {
            throw AuthenticatorError(.credentialExcluded, "a passkey of the exclude list is on this key")
        }
        let offered = request.algorithms.compactMap { COSEAlgorithm(rawValue: $0) }
        guard let algorithm = offered.first(where: info.algorithms.contains) else {
            throw AuthenticatorError(.unsupportedAlgorithm, "this key signs with ES256 and EdDSA only")
        }
        do throws(WebAuthnError) {
            let passkey = Keyring.Passkey(
                id: SecureRandom.bytes(16), rpID: request.rpID, userHandle: request.user.id,
                key: try SigningKey.generate(algorithm))
            let data = AuthenticatorData(
                rpIDHash: SHA256Digest.hash(Array(request.rpID.utf8)), flags: Self.flags(request.userVerification),
                signCount: 0,
                attestedCredentialData: try AttestedCredentialData(
                    aaguid: info.aaguid, credentialID: passkey.id, publicKey: passkey.key.publicKey))
            await keyring.add(passkey)
            return MakeCredentialResponse(
                attestationObject: AttestationObject(format: .none, statement: .map([:]), authenticatorData: data),
                residentKey: true)
        } catch {
            throw AuthenticatorError(.other, "the key could not make a passkey: \(error.reason)")
        }
    }

    func getAssertion(_ request: GetAssertionRequest) async throws(AuthenticatorError) -> GetAssertionResponse {
        guard let used = await keyring.use(rpID: request.rpID, allowList: request.allowList) else {
            throw AuthenticatorError(.noCredentials, "no passkey for \(request.rpID) on this key")
        }
        let data = AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array(request.rpID.utf8)), flags: Self.flags(request.userVerification),
            signCount: used.signCount)
        do throws(WebAuthnError) {
            return GetAssertionResponse(
                credentialID: used.passkey.id, authenticatorData: data,
                signature: try used.passkey.key.signature(for: data.bytes + request.clientDataHash),
                userHandle: used.passkey.userHandle)
        } catch {
            throw AuthenticatorError(.other, "the key could not sign: \(error.reason)")
        }
    }

    /// The user is always present, and verified when asked (the key has a fingerprint reader).
    static func flags(_ userVerification: Bool) -> AuthenticatorFlags {
        userVerification ? [.userPresent, .userVerified] : [.userPresent]
    }
}

/// The passkeys of a ``KeyringAuthenticator``, newest last.
actor Keyring {
    struct Passkey: Sendable {
        let id: [UInt8]
        let rpID: String
        let userHandle: [UInt8]
        let key: SigningKey
    }

    private(set) var passkeys: [Passkey] = []
    private var counters: [[UInt8]: UInt32] = [:]

    func add(_ passkey: Passkey) {
        passkeys.append(passkey)
        counters[passkey.id] = 0
    }

    func holdsAny(of ids: [[UInt8]], rpID: String) -> Bool {
        passkeys.contains { $0.rpID == rpID && ids.contains($0.id) }
    }

    /// The newest passkey for `rpID` (of `allowList`, unless it is empty), with its counter
    /// counted up for one more signature.
    func use(rpID: String, allowList: [[UInt8]]) -> (passkey: Passkey, signCount: UInt32)? {
        guard
            let passkey = passkeys.last(where: { $0.rpID == rpID && (allowList.isEmpty || allowList.contains($0.id)) })
        else {
            return nil
        }
        let count = (counters[passkey.id] ?? 0) + 1
        counters[passkey.id] = count
        return (passkey, count)
    }
}
