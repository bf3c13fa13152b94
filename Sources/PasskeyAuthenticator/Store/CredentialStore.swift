import WebAuthn

/// Where an authenticator keeps its credentials and their keys (DESIGN.md: The file-backed store).
///
/// Every operation is `async` because a store does I/O (STYLE §4); implementations are actors,
/// and one whose calls block (files, an HSM session) runs them off the concurrency pool.
///
/// The store has custody of every secret: it makes a new credential's key pair and hmac-secret
/// seeds (``makeKey(_:)``), hands back only the public key and opaque blobs (``CredentialKey``),
/// and signs and computes hmac-secret outputs itself (``sign(_:with:)``,
/// ``hmacSecret(_:with:userVerified:)``). No requirement hands a private or sealing key out, so a
/// store whose keys live in an HSM, a TPM or a token implements it as the software stores do:
/// ``InMemoryCredentialStore`` and ``FileCredentialStore`` seal the secrets with AES-256-GCM
/// under a store key that never leaves them.
public protocol CredentialStore: Sendable {
    // MARK: Keys

    /// Makes the key pair and hmac-secret seeds of a new credential, or takes in the ones the
    /// request brings, and keeps them in the store's custody.
    ///
    /// Nothing is recorded yet: the authenticator then ``add(_:)``s a ``StoredCredential`` that
    /// holds the returned blobs.
    ///
    /// - Parameter request: the credential ID, RP ID and algorithm, and any secrets to take in.
    /// - Returns: the public key and the blobs to record.
    /// - Throws: `StoreError` with `unsupported` for an algorithm, or an import, the store cannot
    ///   do, or an I/O code.
    func makeKey(_ request: CredentialKeyRequest) async throws(StoreError) -> CredentialKey

    /// Signs `message` with a stored credential's private key (WebAuthn L3 §6.3.3 step 11: the
    /// caller passes `authenticatorData ‖ clientDataHash`).
    ///
    /// - Parameters:
    ///   - message: the bytes to sign.
    ///   - credential: the credential, as this store returned it.
    /// - Returns: the signature in WebAuthn's form for the algorithm (DER for ECDSA).
    /// - Throws: `StoreError` with `corrupt` when the credential's blob is not one of this store's
    ///   for this credential, or an I/O code.
    func sign(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError) -> [UInt8]

    /// Signs as ``sign(_:with:)`` does, so that the same credential and message always give the
    /// same signature where the algorithm allows: what a seeded ``SoftwareAuthenticator`` signs
    /// with, so that a seeded ceremony's response is the same from run to run.
    ///
    /// The software stores sign ES256 with RFC 6979 nonces (``SigningKey/deterministicSignature(for:)``);
    /// EdDSA and RS256 are deterministic already; PS256 keeps its random salt. The default signs
    /// with ``sign(_:with:)``: a store whose keys sign elsewhere (an HSM draws its own nonces) is
    /// as reproducible as its signatures are.
    ///
    /// - Parameters:
    ///   - message: the bytes to sign.
    ///   - credential: the credential, as this store returned it.
    /// - Returns: the signature in WebAuthn's form for the algorithm (DER for ECDSA).
    /// - Throws: `StoreError`, as ``sign(_:with:)``.
    func signReproducibly(_ message: [UInt8], with credential: StoredCredential) async throws(StoreError) -> [UInt8]

    /// `HMAC-SHA-256(CredRandom, salt)` for each salt, with the credential's seed for requests
    /// that verified the user or for the others (CTAP 2.1 §12.5, the hmac-secret extension).
    ///
    /// - Parameters:
    ///   - salts: one or two 32-byte salts.
    ///   - credential: the credential.
    ///   - userVerified: whether the request verified the user.
    /// - Returns: one output per salt, or `nil` when the credential has no seeds.
    /// - Throws: `StoreError` with `corrupt` when the seed's blob does not open, or an I/O code.
    func hmacSecret(_ salts: [[UInt8]], with credential: StoredCredential, userVerified: Bool)
        async throws(StoreError) -> [[UInt8]]?

    // MARK: Records

    /// Stores a new credential.
    ///
    /// - Parameter credential: the record, holding blobs this store made.
    /// - Throws: `StoreError` with `duplicate` when a credential with its ID exists (the store is
    ///   then unchanged), `invalid-credential` when its blobs are not this store's for it, or an
    ///   I/O code.
    func add(_ credential: StoredCredential) async throws(StoreError)

    /// Looks a credential up by ID.
    ///
    /// - Parameter id: the credential ID.
    /// - Returns: the credential, or `nil` when no credential has this ID.
    /// - Throws: `StoreError` with `corrupt` naming the credential's file when it cannot be read
    ///   back intact, or an I/O code.
    func credential(id: [UInt8]) async throws(StoreError) -> StoredCredential?

    /// Lists what is needed to choose among one relying party's credentials, newest first (ties
    /// by ID, as ``StoreListing``), without reading any credential.
    ///
    /// An authenticator chooses from these and then reads the one credential it signs with,
    /// through ``credential(id:)``; that read is where a corrupt file is reported.
    ///
    /// - Parameter rpID: the relying party ID.
    /// - Returns: one summary per credential of the relying party.
    /// - Throws: `StoreError` when the store as a whole cannot be read.
    func summaries(rpID: String) async throws(StoreError) -> [CredentialSummary]

    /// Lists what is needed to choose among one user's credentials at a relying party, newest
    /// first: the credentials a new one for the same user handle replaces (CTAP 2.1 §6.1.2
    /// step 17), and how many a derived key's index counts.
    ///
    /// Making a credential asks this, so its cost is what keeps `create` flat in the store's size;
    /// the default filters ``summaries(rpID:)``, and ``InMemoryCredentialStore`` and
    /// ``FileCredentialStore`` answer from an index by RP ID and user handle.
    ///
    /// - Parameters:
    ///   - rpID: the relying party ID.
    ///   - userHandle: the user handle.
    /// - Returns: one summary per credential of that user at that relying party.
    /// - Throws: `StoreError` when the store as a whole cannot be read.
    func summaries(rpID: String, userHandle: [UInt8]) async throws(StoreError) -> [CredentialSummary]

    /// Lists one relying party's credentials, newest first.
    ///
    /// - Parameter rpID: the relying party ID.
    /// - Returns: the readable credentials and, separately, one error per file that could not be
    ///   read (whose RP cannot be known, so every listing reports it).
    /// - Throws: `StoreError` when the store as a whole cannot be read.
    func credentials(rpID: String) async throws(StoreError) -> StoreListing

    /// Lists every credential, newest first.
    ///
    /// - Returns: the readable credentials and one error per unreadable file.
    /// - Throws: `StoreError` when the store as a whole cannot be read.
    func all() async throws(StoreError) -> StoreListing

    /// Replaces a stored credential with a new version of it (same ID).
    ///
    /// - Parameter credential: the new version.
    /// - Throws: `StoreError` with `not-found` when no credential has its ID, `invalid-credential`
    ///   when its blobs are not this store's for it, or an I/O code.
    func update(_ credential: StoredCredential) async throws(StoreError)

    /// Deletes a credential.
    ///
    /// - Parameter id: the credential ID.
    /// - Throws: `StoreError` with `not-found` when no credential has this ID, or an I/O code.
    func delete(id: [UInt8]) async throws(StoreError)

    /// Adds one to a credential's signature counter and returns the new value, which is durable
    /// before this returns, so a signature made with it can never be followed by one with the
    /// same or a lower counter, across crashes and processes (WebAuthn L3 §6.1.1).
    ///
    /// - Parameter id: the credential ID.
    /// - Returns: the new counter.
    /// - Throws: `StoreError` with `not-found`, `counter-exhausted` at `UInt32.max`, `corrupt`, or
    ///   an I/O code.
    func incrementCounter(id: [UInt8]) async throws(StoreError) -> UInt32
}

extension CredentialStore {
    /// ``summaries(rpID:)``, filtered to one user handle: for stores without an index by user.
    public func summaries(rpID: String, userHandle: [UInt8]) async throws(StoreError) -> [CredentialSummary] {
        try await summaries(rpID: rpID).filter { $0.userHandle == userHandle }
    }
}

/// The result of listing a store: what could be read, and what could not.
///
/// One unreadable file does not hide the others; the CLI lists ``credentials`` and warns about
/// each of ``problems``.
public struct StoreListing: Sendable, Hashable {
    /// The readable credentials, newest first.
    public let credentials: [StoredCredential]
    /// One error per file that could not be read, each naming its file.
    public let problems: [StoreError]

    /// Creates a listing, ordering the credentials newest first (ties by ID, so the order is
    /// stable).
    ///
    /// - Parameters:
    ///   - credentials: the credentials, in any order.
    ///   - problems: the per-file errors.
    public init(credentials: consuming [StoredCredential], problems: [StoreError] = []) {
        // Sorted in place: a listing of a large store is not held twice (issue 13's memory target).
        var credentials = credentials
        credentials.sort { CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id)) }
        self.credentials = credentials
        self.problems = problems
    }
}
