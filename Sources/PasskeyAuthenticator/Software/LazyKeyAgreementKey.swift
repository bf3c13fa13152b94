import Synchronization
import WebAuthn

/// An authenticator's hmac-secret key-agreement key, made when first asked for and then kept,
/// shared by the copies of one ``SoftwareAuthenticator``.
final class LazyKeyAgreementKey: Sendable {
    private let made = Mutex<KeyAgreementPrivateKey?>(nil)

    /// The key, made on first use.
    var key: KeyAgreementPrivateKey {
        get throws(AuthenticatorError) {
            try made.withLock { (made) throws(AuthenticatorError) -> KeyAgreementPrivateKey in
                if let made {
                    return made
                }
                do {
                    let key = try KeyAgreementPrivateKey.generate()
                    made = key
                    return key
                } catch {
                    throw AuthenticatorError(.other, "could not make a key-agreement key: \(error)")
                }
            }
        }
    }

    /// Forgets the key, so the next use makes another (CTAP 2.1 §6.5.4 `regenerate`).
    func regenerate() {
        made.withLock { $0 = nil }
    }
}
