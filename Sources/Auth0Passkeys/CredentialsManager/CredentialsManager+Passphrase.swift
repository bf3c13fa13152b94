import FoundationEssentials
public import WebAuthn

/// A passphrase asked for on each use of the tokens: the analogue of Auth0.swift's
/// `enableBiometrics(withTitle:…)`, for a machine with no biometrics.
///
/// Once ``requirePassphrase(_:)`` is called, ``credentials(withScope:minTTL:parameters:headers:)``,
/// ``renew(parameters:headers:)`` and ``apiCredentials(forAudience:scope:minTTL:parameters:headers:)``
/// ask for the passphrase (through ``setPassphrasePrompt(_:)``) each time and check it before
/// touching the tokens; ``user``, ``hasValid(minTTL:)`` and ``canRenew()`` do not, as in
/// Auth0.swift. The requirement is an entry of the storage (a `PassphraseVerifier`: scrypt
/// parameters, RFC 7914, and a key check), so every later manager over the same storage, in any process, enforces it until
/// ``stopRequiringPassphrase(_:)`` or ``clearAll()``.
///
/// Like biometrics in front of the Keychain, this is a gate for the code that asks for tokens;
/// the entries at rest are sealed by the storage (``FileCredentialsStorage``), and a storage
/// sealed under a passphrase (``CredentialsSealing/passphrase(_:)``) needs it to be read at all.
extension CredentialsManager {
    /// The storage key of the requirement's entry.
    static let passphraseKey = "auth0-passkeys:passphrase"

    /// Requires `passphrase` from now on for the calls that hand out tokens.
    ///
    /// - Throws: ``CredentialsManagerError/Code/storeFailed``.
    public func requirePassphrase(_ passphrase: Passphrase) throws(CredentialsManagerError) {
        let verifier: PassphraseVerifier
        do {
            (verifier, _) = try PassphraseVerifier.make(passphrase, checkedBy: .credentials(Self.passphraseKey))
        } catch {
            throw CredentialsManagerError(.storeFailed, "The passphrase could not be turned into a key.", cause: error)
        }
        try save(verifier, forKey: Self.passphraseKey)
    }

    /// Stops requiring a passphrase, given the one required.
    ///
    /// - Throws: ``CredentialsManagerError/Code/passphraseFailed`` for a wrong passphrase,
    ///   `readFailed`, or `clearFailed`.
    public func stopRequiringPassphrase(_ passphrase: Passphrase) throws(CredentialsManagerError) {
        guard let requirement = try requirement() else { return }
        try Self.check(passphrase, against: requirement)
        try delete(Self.passphraseKey)
    }

    /// Whether the storage requires a passphrase.
    public var requiresPassphrase: Bool {
        (try? requirement()) != nil
    }

    /// Sets how the manager asks for the passphrase when the storage requires one: called once
    /// for each call that hands out tokens; what it throws is reported as `passphraseFailed`.
    ///
    /// - Parameter prompt: the way to ask (a terminal prompt, an environment variable), or `nil`.
    public func setPassphrasePrompt(_ prompt: (@Sendable () async throws -> Passphrase)?) {
        passphrasePrompt = prompt
    }

    /// When the storage requires a passphrase, asks for it and checks it.
    ///
    /// - Throws: ``CredentialsManagerError`` with `passphraseRequired`, `passphraseFailed` or
    ///   `readFailed`.
    func unlock() async throws(CredentialsManagerError) {
        guard let requirement = try requirement() else { return }
        guard let prompt = passphrasePrompt else {
            throw CredentialsManagerError(
                .passphraseRequired, "The stored credentials require a passphrase, and there is no way to ask for it.")
        }
        let passphrase: Passphrase
        do {
            passphrase = try await prompt()
        } catch {
            throw CredentialsManagerError(.passphraseFailed, "The passphrase could not be obtained.", cause: error)
        }
        try Self.check(passphrase, against: requirement)
    }

    private func requirement() throws(CredentialsManagerError) -> PassphraseVerifier? {
        let bytes: [UInt8]?
        do {
            bytes = try storage.entry(forKey: Self.passphraseKey)
        } catch {
            throw CredentialsManagerError(
                .readFailed, "The storage could not read its passphrase requirement.", cause: error)
        }
        guard let bytes else { return nil }
        guard let requirement = try? JSONDecoder().decode(PassphraseVerifier.self, from: Data(bytes)),
            requirement.isReasonable
        else {
            throw CredentialsManagerError(.readFailed, "The storage's passphrase requirement does not decode.")
        }
        return requirement
    }

    private static func check(_ passphrase: Passphrase, against requirement: PassphraseVerifier)
        throws(CredentialsManagerError)
    {
        guard (try? requirement.key(passphrase, checkedBy: .credentials(passphraseKey))) != nil else {
            throw CredentialsManagerError(.passphraseFailed, "The passphrase is not the one the credentials require.")
        }
    }
}
