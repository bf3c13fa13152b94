extension AuthenticatorProfile {
    /// This profile as an authenticator over `store` can run it: narrowed by the custody of a
    /// ``FileCredentialStore`` that has one (``CredentialKeyCustody/narrowing(_:)``), else as it is.
    ///
    /// - Parameter store: the store the authenticator will keep its credentials in.
    /// - Returns: the profile to run.
    public func narrowed(for store: any CredentialStore) -> AuthenticatorProfile {
        (store as? FileCredentialStore)?.custody?.narrowing(self) ?? self
    }
}
