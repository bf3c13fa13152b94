public import WebAuthn

extension StoredCredential {
    /// This credential with another counter or backup flags, for simulating a rolled-back or
    /// cloned authenticator (the W3C WebDriver Set Credential Properties, WebAuthn L3 §11.9; the
    /// CLI's `passkey set`). A `nil` member is unchanged.
    ///
    /// BE is permanent to a real credential (WebAuthn L3 §6.1.3); changing it here is what lets a
    /// test check that a relying party refuses the change.
    ///
    /// - Parameters:
    ///   - signCount: the new signature counter.
    ///   - backupEligible: the new BE flag.
    ///   - backupState: the new BS flag.
    /// - Returns: the changed record, to give to ``CredentialStore/update(_:)``.
    /// - Throws: `WebAuthnError` with `invalid-key` when the stored public key does not parse.
    public func changing(signCount: UInt32? = nil, backupEligible: Bool? = nil, backupState: Bool? = nil)
        throws(WebAuthnError) -> StoredCredential
    {
        var changed = self
        if let backupEligible, backupEligible != self.backupEligible {
            changed = try StoredCredential(
                id: id, rpID: rpID, userHandle: userHandle, userName: userName, userDisplayName: userDisplayName,
                key: CredentialKey(
                    algorithm: algorithm, publicKey: try publicKey, privateKeyBlob: privateKeyBlob,
                    prfSeedBlobWithUV: prfSeedBlobWithUV, prfSeedBlobWithoutUV: prfSeedBlobWithoutUV),
                profile: profile, backupEligible: backupEligible, backupState: self.backupState,
                discoverable: discoverable, signCount: self.signCount, createdAt: createdAt)
            changed.credentialProtection = credentialProtection
            changed.credBlob = credBlob
        }
        if let signCount { changed.signCount = signCount }
        if let backupState { changed.backupState = backupState }
        return changed
    }
}
