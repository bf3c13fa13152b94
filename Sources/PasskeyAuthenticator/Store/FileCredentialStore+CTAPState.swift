import BlockingIO
import FoundationEssentials
import WebAuthn

extension FileCredentialStore: CTAPStateStore {
    /// The file of the CTAP device state, 0600 beside `store.json`: its JSON sealed with
    /// AES-256-GCM under the store key, bound to its purpose by the associated data
    /// `"SoftPasskey ctap-state"`, so the PIN hash and retries can be neither read nor reset by
    /// editing the file (CTAP 2.1 §6.5.2: the PIN is kept as a hash; retries survive power loss).
    static let ctapStateFileName = "ctapstate.bin"
    private static let ctapStateAssociatedData = Array("SoftPasskey ctap-state".utf8)

    public func ctapState() throws(StoreError) -> CTAPDeviceState {
        try files.lock.lock(exclusive: false, timeout: lockTimeout)
        defer { files.lock.unlock() }
        guard let file = try StoreFile(openingIfExists: Self.ctapStateFileName, in: files.root) else {
            return CTAPDeviceState()
        }
        let sealed = try file.readAll(limit: Files.fileSizeLimit)
        var json: [UInt8]
        do {
            json = try AESGCM.open(sealed, using: keys.storeKey, authenticating: Self.ctapStateAssociatedData)
        } catch {
            throw StoreError(.corrupt, "\(Self.ctapStateFileName) does not open under the store key (tampered?)")
        }
        defer { secureZero(&json) }
        do {
            return try JSONDecoder().decode(CTAPDeviceState.self, from: Data(json))
        } catch {
            throw StoreError(.corrupt, "\(Self.ctapStateFileName) is not a CTAP device state")
        }
    }

    public func setCTAPState(_ state: CTAPDeviceState) throws(StoreError) {
        var sealed: [UInt8]
        do {
            var json = try [UInt8](JSONEncoder().encode(state))
            defer { secureZero(&json) }
            sealed = try AESGCM.seal(json, using: keys.storeKey, authenticating: Self.ctapStateAssociatedData)
        } catch {
            throw StoreError(.io, "cannot seal the CTAP device state")
        }
        try files.lock.lock(exclusive: true, timeout: lockTimeout)
        defer { files.lock.unlock() }
        try files.root.replace(Self.ctapStateFileName, with: sealed)
    }
}
