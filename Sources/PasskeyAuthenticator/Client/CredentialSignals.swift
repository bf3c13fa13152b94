public import WebAuthn

/// What a client does with a relying party's signals (WebAuthn L3 §5.1.11
/// `signalUnknownCredential`, `signalAllAcceptedCredentials`, `signalCurrentUserDetails`) on the
/// credentials of one store, as a platform authenticator that keeps its passkeys itself.
///
/// The specification lets the authenticator remove or hide what the relying party no longer
/// knows; this one **removes** it (a hidden passkey that cannot be used again is only clutter,
/// and a test sees the signal's effect in the store at once). Current user details rename the
/// user's passkeys of that RP ID. The caller's origin is checked against the RP ID exactly as a
/// ceremony checks it (§5.1.11 step 3, the rules of §5.1.3 step 7).
public struct CredentialSignals: Sendable {
    /// What a signal changed in the store.
    public enum Change: Sendable, Hashable {
        /// The credential was removed.
        case deleted(CredentialSummary)
        /// The credential's user name and display name were changed.
        case updated(CredentialSummary)

        /// The credential changed.
        public var credential: CredentialSummary {
            switch self {
            case .deleted(let credential), .updated(let credential): credential
            }
        }
    }

    /// The store the signals change.
    public let store: any CredentialStore

    /// Signals for the credentials of `store`.
    ///
    /// - Parameter store: the store.
    public init(store: any CredentialStore) {
        self.store = store
    }

    /// The relying party does not know `credentialID` (§5.1.11.1): the credential, if it is one
    /// of `rpID`'s, is removed.
    ///
    /// - Parameters:
    ///   - rpID: the RP ID of the signal.
    ///   - credentialID: the credential the relying party does not know.
    ///   - origin: the caller's origin.
    /// - Returns: what changed: the removed credential, or nothing.
    /// - Throws: ``WebAuthnClientError``: `SecurityError` when the origin may not use the RP ID;
    ///   `NotAllowedError` when the store fails.
    public func unknownCredential(rpID: String, credentialID: [UInt8], origin: WebOrigin)
        async throws(WebAuthnClientError) -> [Change]
    {
        let rpID = try await CallerOrigin.rpID(rpID, for: origin, relatedOrigins: nil)
        return try await storing { () async throws(StoreError) in
            guard let stored = try await store.credential(id: credentialID), stored.rpID == rpID else { return [] }
            return try await delete(CredentialSummary(stored))
        }
    }

    /// These are all of the user's credentials that `rpID` accepts (§5.1.11.2): the user's other
    /// credentials of that RP ID are removed.
    ///
    /// - Parameters:
    ///   - rpID: the RP ID of the signal.
    ///   - userHandle: the user's handle (`userId`).
    ///   - accepted: the credential IDs the relying party accepts.
    ///   - origin: the caller's origin.
    /// - Returns: the removed credentials.
    /// - Throws: ``WebAuthnClientError``, as ``unknownCredential(rpID:credentialID:origin:)``.
    public func allAcceptedCredentials(rpID: String, userHandle: [UInt8], accepted: [[UInt8]], origin: WebOrigin)
        async throws(WebAuthnClientError) -> [Change]
    {
        let rpID = try await CallerOrigin.rpID(rpID, for: origin, relatedOrigins: nil)
        let accepted = Set(accepted)
        return try await storing { () async throws(StoreError) in
            var changes: [Change] = []
            for summary in try await store.summaries(rpID: rpID, userHandle: userHandle)
            where !accepted.contains(summary.id) {
                changes += try await delete(summary)
            }
            return changes
        }
    }

    /// The user's current name and display name (§5.1.11.3): each of the user's credentials of
    /// `rpID` takes them.
    ///
    /// - Parameters:
    ///   - rpID: the RP ID of the signal.
    ///   - userHandle: the user's handle (`userId`).
    ///   - name: the user's name.
    ///   - displayName: the user's display name.
    ///   - origin: the caller's origin.
    /// - Returns: the updated credentials (those whose names changed).
    /// - Throws: ``WebAuthnClientError``, as ``unknownCredential(rpID:credentialID:origin:)``.
    public func currentUserDetails(
        rpID: String, userHandle: [UInt8], name: String, displayName: String, origin: WebOrigin
    ) async throws(WebAuthnClientError) -> [Change] {
        let rpID = try await CallerOrigin.rpID(rpID, for: origin, relatedOrigins: nil)
        return try await storing { () async throws(StoreError) in
            var changes: [Change] = []
            for summary in try await store.summaries(rpID: rpID, userHandle: userHandle) {
                guard var stored = try await store.credential(id: summary.id),
                    stored.userName != name || stored.userDisplayName != displayName
                else { continue }
                stored.userName = name
                stored.userDisplayName = displayName
                try await store.update(stored)
                changes.append(.updated(CredentialSummary(stored)))
            }
            return changes
        }
    }

    /// Removes one credential; one removed meanwhile is no change.
    private func delete(_ summary: CredentialSummary) async throws(StoreError) -> [Change] {
        do {
            try await store.delete(id: summary.id)
            return [.deleted(summary)]
        } catch  where error.code == .notFound {
            return []
        }
    }

    /// Runs store work, a failure of which is the client's `NotAllowedError` with the store's
    /// error behind it.
    private func storing<T>(_ body: () async throws(StoreError) -> T) async throws(WebAuthnClientError) -> T {
        do {
            return try await body()
        } catch {
            throw WebAuthnClientError(AuthenticatorError(error))
        }
    }
}
