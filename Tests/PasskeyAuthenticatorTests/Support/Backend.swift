import PasskeyAuthenticator
import PasskeyPKCS11
import TestSupport
import Testing

/// The key backends the backend-independent authenticator tests run against (issue 16): the
/// in-memory store, the file store with sealed keys, and the file store whose keys a SoftHSM2
/// token keeps (``PKCS11KeyCustody``), with the profile narrowed to what a token runs.
enum Backend: String, CaseIterable, CustomTestStringConvertible {
    case memory, file, pkcs11

    var testDescription: String { rawValue }

    /// The backends that take keys in (import, WebDriver "Add Credential"); a token makes its own.
    static let importingKeys: [Backend] = [.memory, .file]

    /// A new, empty store of this backend, its files (if any) in the test's
    /// `TemporaryDirectory.current` (the `.temporaryDirectory` trait), removed after the test.
    func open() async throws -> any CredentialStore {
        try await open(in: TemporaryDirectory.current)
    }

    /// A new, empty store of this backend, its files (if any) in `directory`.
    func open(in directory: TemporaryDirectory) async throws -> any CredentialStore {
        switch self {
        case .memory:
            return InMemoryCredentialStore()
        case .file:
            return try await FileCredentialStore(directory: directory.appending("store"))
        case .pkcs11:
            try await SoftHSMToken.prepare()
            let token = try await PKCS11Token.open(
                module: PKCS11Module.load(SoftHSMToken.module), label: SoftHSMToken.label,
                pin: PKCS11PIN(SoftHSMToken.pin))
            return try await FileCredentialStore(
                directory: directory.appending("store"), custody: PKCS11KeyCustody(token: token))
        }
    }
}
