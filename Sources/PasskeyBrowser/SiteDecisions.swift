import BlockingIO
public import FoundationEssentials
public import WebAuthn

/// The sites a person allowed or refused the use of a store's passkeys in a browser, one decision
/// per origin, kept in the store's directory: what a browser's per-site permission list is for
/// its passkey prompt.
///
/// ```
/// DIR/sites.json     0600
/// {"version":1,"sites":[{"origin":"https://shop.example","allowed":true,"decided":"2026-11-29T07:00:00Z"}]}
/// ```
///
/// An origin is HTML's serialization of a tuple origin (`scheme://host[:port]`), the key a browser
/// keeps permissions under. Each change replaces the file atomically and durably (`fsync`, rename,
/// `fsync` of the directory), so a crash leaves the old list or the new one. A file that does not
/// read back as such a list (not JSON, another version, an origin that is not one, an origin twice)
/// is ``BrowserError/Code/sitesUnreadable``, never an empty list: a damaged list must not turn a
/// refusal into a question, or a question into an allow.
///
/// Changes within one process are ordered by the actor; two processes changing the list at once
/// may lose one's change (the last write wins, whole).
///
/// ```swift
/// let sites = SiteDecisions(directory: storeDirectory)
/// if try await sites.decision(for: origin) == nil {
///     try await sites.record(true, for: origin)
/// }
/// ```
public actor SiteDecisions {
    /// One remembered decision.
    public struct Decision: Sendable, Hashable, Codable {
        /// The origin decided for, serialized.
        public let origin: String
        /// Whether the origin may use the store's passkeys.
        public let allowed: Bool
        /// When the person decided.
        public let decided: Date

        /// Creates a decision.
        ///
        /// - Parameters:
        ///   - origin: the origin.
        ///   - allowed: whether it may use the passkeys.
        ///   - decided: when.
        public init(origin: WebOrigin, allowed: Bool, decided: Date) {
            self.origin = origin.description
            self.allowed = allowed
            self.decided = decided
        }
    }

    /// The file's name in the store's directory.
    public static let fileName = "sites.json"
    /// The largest file read: far more decisions than a person makes.
    static let sizeLimit = 1 << 20

    /// The store's directory.
    public nonisolated let directory: String
    private let executor = BlockingExecutor(label: "PasskeyBrowser.SiteDecisions")

    /// Runs on a queue of its own: reading and committing the file block (STYLE §4).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The decisions kept in `directory`.
    ///
    /// - Parameter directory: the store's directory; nothing is read until asked.
    public init(directory: String) {
        self.directory = directory
    }

    /// Every remembered decision, by origin.
    ///
    /// - Returns: the decisions, none when the file does not exist.
    /// - Throws: ``BrowserError``: `sites-unreadable` for a damaged file, `file-system` when it cannot be read.
    public func decisions() throws(BrowserError) -> [Decision] {
        try read()
    }

    /// The decision for `origin`.
    ///
    /// - Parameter origin: the origin.
    /// - Returns: whether it was allowed, or `nil` when it was never decided (or forgotten).
    /// - Throws: ``BrowserError``, as ``decisions()``.
    public func decision(for origin: WebOrigin) throws(BrowserError) -> Bool? {
        try read().first { $0.origin == origin.description }?.allowed
    }

    /// Remembers a decision for `origin`, replacing any earlier one.
    ///
    /// - Parameters:
    ///   - allowed: whether the origin may use the passkeys.
    ///   - origin: the origin.
    ///   - date: when; now by default.
    /// - Throws: ``BrowserError``, as ``decisions()``, or `file-system` when the file cannot be written.
    public func record(_ allowed: Bool, for origin: WebOrigin, at date: Date = Date()) throws(BrowserError) {
        var decisions = try read().filter { $0.origin != origin.description }
        decisions.append(Decision(origin: origin, allowed: allowed, decided: date))
        try write(decisions)
    }

    /// Forgets the decision for `origin`, so that the next ceremony from it asks again.
    ///
    /// - Parameter origin: the origin.
    /// - Returns: whether there was one.
    /// - Throws: ``BrowserError``, as ``record(_:for:at:)``.
    public func forget(_ origin: WebOrigin) throws(BrowserError) -> Bool {
        let decisions = try read()
        let kept = decisions.filter { $0.origin != origin.description }
        guard kept.count < decisions.count else {
            return false
        }
        try write(kept)
        return true
    }

    /// The file as written: a version, and the decisions.
    private struct File: Codable {
        let version: Int
        let sites: [Decision]
    }

    private var path: String { directory + "/" + Self.fileName }

    private func read() throws(BrowserError) -> [Decision] {
        let bytes: [UInt8]?
        do {
            bytes = try SmallFile.read(path, limit: Self.sizeLimit)
        } catch {
            throw BrowserError(error.isOverLimit ? .sitesUnreadable : .fileSystem, "\(path): \(error.reason)")
        }
        guard let bytes else {
            return []
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let file = try? decoder.decode(File.self, from: Data(bytes)) else {
            throw BrowserError(.sitesUnreadable, "\(path) is not a list of site decisions")
        }
        guard file.version == 1 else {
            throw BrowserError(.sitesUnreadable, "\(path) has version \(file.version), not 1")
        }
        var seen: Set<String> = []
        for decision in file.sites {
            guard (try? WebOrigin(decision.origin))?.description == decision.origin else {
                throw BrowserError(.sitesUnreadable, "\(path) lists \"\(decision.origin)\", which is not an origin")
            }
            guard seen.insert(decision.origin).inserted else {
                throw BrowserError(.sitesUnreadable, "\(path) lists \(decision.origin) twice")
            }
        }
        return file.sites.sorted { $0.origin < $1.origin }
    }

    private func write(_ decisions: [Decision]) throws(BrowserError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // Strings, booleans and dates always encode.
        let bytes = try! encoder.encode(File(version: 1, sites: decisions.sorted { $0.origin < $1.origin }))
        do {
            let folder = try OpenFile<SystemCallError>(opening: directory, .directory)
            try folder.replace(Self.fileName, with: Array(bytes) + [UInt8(ascii: "\n")])
        } catch {
            throw BrowserError(.fileSystem, "cannot write \(path): \(error.reason)")
        }
    }
}
