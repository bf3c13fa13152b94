public import FoundationEssentials
import WebAuthn

extension KeyExportingStore {
    /// Exports the passkeys of this store (of one relying party, or all) in the Credential
    /// Exchange Format: one account, one item per passkey, each key as PKCS#8.
    ///
    /// Left out, and returned as such: credentials with a counter above 0 (CXF 1.0
    /// "PasskeyCredential": they MUST NOT be exported, since the importer restarts the counter),
    /// and server-side credentials without a user handle (a CXF passkey has one).
    ///
    /// - Parameters:
    ///   - rpID: the relying party whose passkeys to export; `nil` for all.
    ///   - now: the export's timestamp.
    /// - Returns: the export and the IDs of the credentials left out.
    /// - Throws: `StoreError` when the store cannot be read, a credential file is unreadable (an
    ///   export never leaves a passkey out silently), or a key cannot be exported.
    public func exportCredentialExchange(rpID: String? = nil, now: Date = Date()) async throws(StoreError)
        -> (exchange: CredentialExchange, leftOut: [[UInt8]])
    {
        let listing: StoreListing
        if let rpID {
            listing = try await credentials(rpID: rpID)
        } else {
            listing = try await all()
        }
        if let problem = listing.problems.first {
            throw StoreError(
                problem.code, "cannot export all: \(listing.problems.count) unreadable: \(problem.reason)",
                file: problem.file)
        }
        var items: [CredentialExchange.Item] = []
        var leftOut: [[UInt8]] = []
        for credential in listing.credentials.sorted(by: { $0.createdAt < $1.createdAt }) {
            guard credential.signCount == 0, !credential.userHandle.isEmpty else {
                leftOut.append(credential.id)
                continue
            }
            let pkcs8: [UInt8]
            do {
                pkcs8 = try await exportPrivateKey(of: credential).exportedPKCS8()
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.io, "cannot export the key of \(Base64URL.encode(credential.id)): \(error)")
            }
            let seconds = UInt64(max(0, credential.createdAt.timeIntervalSince1970))
            items.append(
                CredentialExchange.Item(
                    id: Base64URL(SecureRandom.bytes(16)), creationAt: seconds, modifiedAt: seconds,
                    title: credential.rpID,
                    credentials: [
                        .passkey(
                            CredentialExchange.Passkey(
                                credentialId: Base64URL(credential.id), rpId: credential.rpID,
                                username: credential.userName, userDisplayName: credential.userDisplayName,
                                userHandle: Base64URL(credential.userHandle), key: Base64URL(pkcs8)))
                    ]))
        }
        let account = CredentialExchange.Account(
            id: Base64URL(SecureRandom.bytes(16)), username: "", email: "", collections: [], items: items)
        let exchange = CredentialExchange(
            version: .init(major: 1, minor: 0), exporterRpId: "softpasskey.invalid",
            exporterDisplayName: "SoftPasskey", timestamp: UInt64(max(0, now.timeIntervalSince1970)),
            accounts: [account])
        return (exchange, leftOut)
    }
}

extension CredentialStore {
    /// Imports every passkey of a Credential Exchange Format export, all or none.
    ///
    /// Each becomes a discoverable credential of `profile` (its BE and BS flags) with a counter
    /// of 0 that never advances (CXF 1.0: importers set the counter to zero and do not increment
    /// it), so `profile` must be one that keeps no counter. Every key is read and every ID checked
    /// before the store changes; a failure while adding removes what this call added.
    ///
    /// - Parameters:
    ///   - exchange: the export.
    ///   - profile: the profile the imported passkeys behave by.
    /// - Returns: the credentials as this store keeps them.
    /// - Throws: `StoreError` with `invalid-credential` for a profile that counts signatures,
    ///   `unsupported-version` for a major version other than 1,
    ///   `invalid-credential` for a key that is not PKCS#8 of a supported algorithm or an empty
    ///   user handle, `duplicate` when an ID is already stored or appears twice (the store is then
    ///   unchanged), or another code.
    public func importCredentialExchange(_ exchange: CredentialExchange, profile: AuthenticatorProfile)
        async throws(StoreError) -> [StoredCredential]
    {
        guard !profile.countsSignatures else {
            throw StoreError(
                .invalidCredential,
                "profile \(profile.name) counts signatures; CXF passkeys never do (import them as platform)")
        }
        guard exchange.version.major == 1 else {
            throw StoreError(
                .unsupportedVersion, "CXF version \(exchange.version.major).\(exchange.version.minor); this reads 1.x")
        }
        var seen = Set<[UInt8]>()
        var prepared: [(SigningKey, CredentialTemplate)] = []
        for passkey in exchange.passkeys {
            let id = passkey.credentialId.bytes
            let name = Base64URL.encode(id)
            guard seen.insert(id).inserted else {
                throw StoreError(.duplicate, "passkey \(name) appears twice in the export")
            }
            guard try await credential(id: id) == nil else {
                throw StoreError(.duplicate, "a credential with ID \(name) is already stored")
            }
            guard !passkey.userHandle.bytes.isEmpty, !passkey.rpId.isEmpty else {
                throw StoreError(.invalidCredential, "passkey \(name) has no user handle or RP ID")
            }
            let key: SigningKey
            do {
                key = try SigningKey(pkcs8: passkey.key.bytes)
            } catch {
                throw StoreError(.invalidCredential, "the key of passkey \(name): \(error.reason)")
            }
            prepared.append(
                (
                    key,
                    CredentialTemplate(
                        id: id, rpID: passkey.rpId, userHandle: passkey.userHandle.bytes, userName: passkey.username,
                        userDisplayName: passkey.userDisplayName, profile: profile.name,
                        backupEligible: profile.backupEligible, backupState: profile.backupState, discoverable: true)
                ))
        }
        var imported: [StoredCredential] = []
        do {
            for (key, template) in prepared {
                imported.append(try await importCredential(privateKey: key, as: template))
            }
        } catch {
            for credential in imported {
                try? await delete(id: credential.id)
            }
            throw error
        }
        return imported
    }
}
