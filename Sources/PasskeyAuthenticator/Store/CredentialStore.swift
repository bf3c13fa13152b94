public import WebAuthn

/// Where an authenticator keeps its credentials (DESIGN.md: The file-backed store).
///
/// Every operation is `async` because a store does I/O (STYLE §4); implementations are actors.
/// Secrets inside a ``StoredCredential`` are sealed under ``sealingKey``, which the store owns:
/// an authenticator seals a new key with it before ``add(_:)`` and opens a stored one with it
/// before signing.
public protocol CredentialStore: Sendable {
    /// The key every sealed field of this store's credentials is sealed under.
    var sealingKey: SymmetricKey { get }

    /// Stores a new credential.
    ///
    /// - Parameter credential: the record, sealed under ``sealingKey``.
    /// - Throws: `StoreError` with `duplicate` when a credential with its ID exists (the store is
    ///   then unchanged), `invalid-credential` when its sealed fields do not open under
    ///   ``sealingKey``, or an I/O code.
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
    ///   when its sealed fields do not open, or an I/O code.
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
    public init(credentials: [StoredCredential], problems: [StoreError] = []) {
        self.credentials = credentials.sorted {
            CredentialSummary.newestFirst(($0.createdAt, $0.id), ($1.createdAt, $1.id))
        }
        self.problems = problems
    }
}
