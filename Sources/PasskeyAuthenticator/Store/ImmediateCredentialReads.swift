/// A store that can hand an assertion its credentials, and sign, without suspending when it has
/// them at hand: what lets ``WebAuthnClient/get(json:origin:topOrigin:)`` answer the plain case
/// without a hop to the store's actor or thread (issue 30).
///
/// Every requirement may answer `nil`, "not at hand": the ceremony then takes the ordinary
/// `async` path, which gives the answer or its error, so what is at hand can only agree with it.
/// ``InMemoryCredentialStore`` always has its records at hand; ``FileCredentialStore`` has the
/// credentials it read whose files no inotify event has reported changed since (drained without
/// waiting: a requirement here makes no call that can block).
protocol ImmediateCredentialReads: CredentialStore {
    /// The stored credentials with these IDs (those the store has, in any order); `nil` when one
    /// of them is not at hand without a call that can block.
    func credentialsNow(ids: [[UInt8]]) -> [StoredCredential]?

    /// The discoverable credentials of `rpID`, newest first as ``CredentialStore/summaries(rpID:)``
    /// orders them; `nil` when the store cannot list them without I/O.
    func discoverableCredentialsNow(rpID: String) -> [StoredCredential]?

    /// The sealed keys the store signs with itself; `nil` when another custody signs.
    var sealedKeysNow: SealedKeys? { get }
}
