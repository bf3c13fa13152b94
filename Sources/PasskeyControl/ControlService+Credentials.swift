import FoundationEssentials
import PasskeyAuthenticator
import WebAuthn

extension ControlService {
    /// Injects a credential into a virtual authenticator (WebAuthn L3 §11.4, Add Credential): its
    /// PKCS#8 key is taken into the store's custody (sealed) with fresh hmac-secret seeds.
    ///
    /// - Parameters:
    ///   - session: the session.
    ///   - authenticatorID: the authenticator.
    ///   - parameters: the credential, with its `privateKey`.
    /// - Throws: ``ControlError`` `invalid argument` for a key that is not PKCS#8 P-256 or
    ///   Ed25519, or a credential ID the store already has; the store is then unchanged.
    public func addCredential(
        session: String, authenticator authenticatorID: String, _ parameters: CredentialParameters
    )
        async throws(ControlError)
    {
        let virtual = try authenticator(session: session, authenticatorID)
        guard let pkcs8 = parameters.privateKey else { throw .invalidArgument("privateKey is required") }
        let key: SigningKey
        do {
            key = try SigningKey(pkcs8: pkcs8.bytes)
        } catch {
            throw .invalidArgument("privateKey: \(error.reason)")
        }
        let stored: StoredCredential
        do {
            stored = try await virtual.store.importCredential(
                privateKey: key,
                as: CredentialTemplate(
                    id: parameters.credentialId.bytes, rpID: parameters.rpId,
                    userHandle: parameters.userHandle?.bytes ?? [], userName: parameters.userName,
                    userDisplayName: parameters.userDisplayName, profile: virtual.authenticator.profile.name,
                    backupEligible: parameters.backupEligibility, backupState: parameters.backupState,
                    discoverable: parameters.isResidentCredential, signCount: parameters.signCount))
        } catch  where error.code == .duplicate || error.code == .invalidCredential {
            throw .invalidArgument(error.reason)
        } catch {
            throw ControlError(serverFault: error)
        }
        if let blob = parameters.largeBlob {
            do {
                try await virtual.authenticator.setLargeBlob(blob.bytes, of: stored)
            } catch {
                try? await virtual.store.delete(id: stored.id)
                guard error.code == .largeBlobStorageFull else {
                    throw ControlError(serverFault: error)
                }
                throw .invalidArgument("largeBlob: \(error.reason)")
            }
        }
        record(.credentialAdded, stored, session: session, authenticator: authenticatorID)
    }

    /// Every credential of a virtual authenticator, without private keys (WebAuthn L3 §11.5, Get
    /// Credentials).
    ///
    /// - Throws: ``ControlError`` `invalid argument` for an unknown authenticator.
    public func credentials(session: String, authenticator authenticatorID: String) async throws(ControlError)
        -> [CredentialParameters]
    {
        let virtual = try authenticator(session: session, authenticatorID)
        let stored: [StoredCredential]
        do {
            stored = try await virtual.store.all().credentials
        } catch {
            throw ControlError(serverFault: error)
        }
        var listed: [CredentialParameters] = []
        for credential in stored {
            var parameters = CredentialParameters(credential)
            if virtual.configuration.extensions.contains("largeBlob") {
                parameters.largeBlob = (try? await virtual.authenticator.largeBlob(of: credential)).flatMap { $0 }
                    .map { Base64URL($0) }
            }
            listed.append(parameters)
        }
        return listed
    }

    /// One credential with its private key as PKCS#8: the only way a key leaves the server.
    ///
    /// - Throws: ``ControlError`` `invalid argument` for an unknown credential, `unsupported
    ///   operation` for a store whose keys cannot leave it.
    public func exportCredential(session: String, authenticator authenticatorID: String, credentialID: [UInt8])
        async throws(ControlError) -> CredentialParameters
    {
        let store = try authenticator(session: session, authenticatorID).store
        let stored = try await credential(credentialID, in: store)
        guard let exporting = store as? any KeyExportingStore else {
            throw .unsupported("this authenticator's store does not let keys out")
        }
        do {
            var der = try await exporting.exportPrivateKey(of: stored).exportedPKCS8()
            defer { _ = der.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            var parameters = CredentialParameters(stored)
            parameters.privateKey = Base64URL(der)
            return parameters
        } catch {
            throw ControlError(serverFault: error)
        }
    }

    /// Removes one credential (WebAuthn L3 §11.6, Remove Credential).
    ///
    /// - Throws: ``ControlError`` `invalid argument` for an unknown authenticator or credential.
    public func removeCredential(session: String, authenticator authenticatorID: String, credentialID: [UInt8])
        async throws(ControlError)
    {
        let store = try authenticator(session: session, authenticatorID).store
        let stored = try await credential(credentialID, in: store)
        do {
            try await store.delete(id: credentialID)
        } catch  where error.code == .notFound {
            throw .invalidArgument("no credential \(Base64URL.encode(credentialID)) on this authenticator")
        } catch {
            throw ControlError(serverFault: error)
        }
        record(.credentialDeleted, stored, session: session, authenticator: authenticatorID)
    }

    /// Removes every credential (WebAuthn L3 §11.7, Remove All Credentials).
    ///
    /// - Throws: ``ControlError`` `invalid argument` for an unknown authenticator.
    public func removeAllCredentials(session: String, authenticator authenticatorID: String)
        async throws(ControlError)
    {
        let store = try authenticator(session: session, authenticatorID).store
        do {
            for credential in try await store.all().credentials {
                do {
                    try await store.delete(id: credential.id)
                    record(.credentialDeleted, credential, session: session, authenticator: authenticatorID)
                } catch  where error.code == .notFound {
                    // Removed meanwhile by a ceremony replacing it: gone either way.
                }
            }
        } catch {
            throw ControlError(serverFault: error)
        }
    }

    /// Sets a credential's backup flags and counter (WebAuthn L3 §11.9, Set Credential
    /// Properties); a member left `nil` is unchanged.
    ///
    /// - Throws: ``ControlError`` `invalid argument` for an unknown authenticator or credential.
    public func setCredentialProperties(
        session: String, authenticator authenticatorID: String, credentialID: [UInt8], backupEligibility: Bool?,
        backupState: Bool?, signCount: UInt32?
    ) async throws(ControlError) {
        let store = try authenticator(session: session, authenticatorID).store
        let stored = try await credential(credentialID, in: store)
        do {
            let changed = try stored.changing(
                signCount: signCount, backupEligible: backupEligibility, backupState: backupState)
            try await store.update(changed)
            record(.credentialUpdated, changed, session: session, authenticator: authenticatorID)
        } catch {
            throw ControlError(serverFault: error)
        }
    }

    /// Reports a control command's change to a credential (no origin: no page caused it).
    private func record(
        _ kind: ControlEvent.Kind, _ credential: StoredCredential, session: String, authenticator: String
    ) {
        sessions[session]?.events.record(
            ControlEvent(
                kind, authenticatorId: authenticator, credentialId: credential.id, rpId: credential.rpID,
                userHandle: credential.userHandle, signCount: credential.signCount))
    }

    /// The stored credential `id`, or `invalid argument`.
    private func credential(_ id: [UInt8], in store: any CredentialStore) async throws(ControlError)
        -> StoredCredential
    {
        let stored: StoredCredential?
        do {
            stored = try await store.credential(id: id)
        } catch {
            throw ControlError(serverFault: error)
        }
        guard let stored else {
            throw .invalidArgument("no credential \(Base64URL.encode(id)) on this authenticator")
        }
        return stored
    }
}
