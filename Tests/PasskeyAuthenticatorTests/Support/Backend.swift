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

    /// A new, empty store of this backend; its directory, if any, goes with the returned value.
    func store() async throws -> BackendStore {
        let directory = try TemporaryDirectory()
        return BackendStore(store: try await open(in: directory), directory: directory)
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

/// A store made for one test, and the directory removed with it.
final class BackendStore: Sendable {
    let store: any CredentialStore
    private let directory: TemporaryDirectory

    init(store: any CredentialStore, directory: TemporaryDirectory) {
        self.store = store
        self.directory = directory
    }

    deinit { directory.remove() }
}
