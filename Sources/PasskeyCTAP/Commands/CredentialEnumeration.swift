import PasskeyAuthenticator

/// What an enumeration of `authenticatorCredentialManagement` has still to return (CTAP 2.1
/// §6.8.3 `enumerateRPsGetNextRP`, §6.8.4 `enumerateCredentialsGetNextCredential`).
///
/// The device keeps one, made by the `…Begin` subcommand when there is more than one item; the
/// next command of any kind takes it, and only the matching `…GetNext…` puts the rest back, so any
/// other command ends the enumeration (§6.8: "the authenticator … discards the state").
enum CredentialEnumeration {
    /// The RP IDs still to return, in order.
    case relyingParties([String])
    /// The credentials still to return, in order.
    case credentials([StoredCredential])
}
