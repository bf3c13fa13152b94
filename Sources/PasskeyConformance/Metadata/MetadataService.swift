public import Auth0Passkeys
public import FoundationEssentials
public import Logging
public import WebAuthn

/// A relying party's FIDO metadata from a URL: the BLOB fetched with an `HTTPTransport`
/// (`CurlTransport` by default), verified to a root with `MetadataBLOB`, and kept until its
/// `nextUpdate` (FIDO MDS 3.0 §3.1.6: readers fetch the next BLOB once that date has come).
///
/// Once `nextUpdate` has passed, the next ``blob()`` fetches again. If that fails, the BLOB in hand
/// is kept for one more day (``gracePeriod``), the failure logged and kept in
/// ``lastRefreshFailure``; after that, ``blob()`` throws.
///
/// ```swift
/// let service = MetadataService(url: "http://127.0.0.1:8090/", root: root)
/// var relyingParty = RelyingParty(ids: ["example.org"])
/// relyingParty.metadata = try await service.blob()
/// ```
public actor MetadataService {
    /// How long past `nextUpdate` a BLOB is still used when no newer one can be fetched.
    public static let gracePeriod: TimeInterval = 86_400

    /// Where the BLOB is fetched from.
    public let url: String
    private let root: X509Certificate
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let logger: Logger
    /// The BLOB in hand and its `nextUpdate`.
    private var current: (blob: MetadataBLOB, nextUpdate: Date)?
    /// Why the last refetch failed, while the BLOB in hand is still used despite it; `nil` once a
    /// fetch succeeds.
    public private(set) var lastRefreshFailure: ConformanceError?

    /// A service for the BLOB at `url`.
    ///
    /// - Parameters:
    ///   - url: the BLOB's URL.
    ///   - root: the root the BLOB's signer must chain to.
    ///   - transport: how to fetch it.
    ///   - now: the clock; certificates are checked and `nextUpdate` compared at its time.
    ///   - logger: where a failed refetch is reported; nothing is logged by default.
    public init(
        url: String, root: X509Certificate, transport: any HTTPTransport = CurlTransport(),
        now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "passkey-conformance-mds", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.url = url
        self.root = root
        self.transport = transport
        self.now = now
        self.logger = logger
    }

    /// The BLOB: the one in hand until its `nextUpdate`, then a fresh one.
    ///
    /// - Returns: the verified BLOB.
    /// - Throws: ``ConformanceError/Code/metadataUnavailable`` when it cannot be fetched (and the
    ///   BLOB in hand, if any, is more than ``gracePeriod`` past its `nextUpdate`);
    ///   ``ConformanceError/Code/badMetadata`` when the fetched BLOB does not verify or parse.
    public func blob() async throws(ConformanceError) -> MetadataBLOB {
        let time = now()
        if let current, time < current.nextUpdate {
            return current.blob
        }
        do {
            let fetched = try await fetch(at: time)
            current = fetched
            lastRefreshFailure = nil
            return fetched.blob
        } catch {
            guard let current, time < current.nextUpdate + Self.gracePeriod else { throw error }
            logger.info(
                "metadata: keeping BLOB no. \(current.blob.number) past its nextUpdate \(current.blob.nextUpdate)",
                metadata: ["error": "\(error)"])
            lastRefreshFailure = error
            return current.blob
        }
    }

    /// `relyingParty` with this service's BLOB as its metadata (WebAuthn L3 §7.1 steps 23–24).
    ///
    /// - Parameter relyingParty: the policy to add metadata to.
    /// - Returns: the same policy, reading the BLOB.
    /// - Throws: what ``blob()`` throws.
    public func relyingParty(_ relyingParty: RelyingParty) async throws(ConformanceError) -> RelyingParty {
        var relyingParty = relyingParty
        relyingParty.metadata = try await blob()
        return relyingParty
    }

    /// Fetches and verifies the BLOB at `time`.
    private func fetch(at time: Date) async throws(ConformanceError) -> (blob: MetadataBLOB, nextUpdate: Date) {
        let response: HTTPResponse
        do {
            response = try await transport.send(
                HTTPRequest(method: .get, url: url, headers: [(name: "Accept", value: "application/jwt")]))
        } catch {
            throw ConformanceError(.metadataUnavailable, "GET \(url): \(error)")
        }
        guard response.status == 200 else {
            throw ConformanceError(.metadataUnavailable, "GET \(url) answered \(response.status)")
        }
        let blob: MetadataBLOB
        do {
            blob = try MetadataBLOB(jwt: response.body, root: root, at: time)
        } catch {
            throw ConformanceError(.badMetadata, "the BLOB of \(url): \(error)")
        }
        guard let nextUpdate = try? Date(blob.nextUpdate, strategy: Date.ISO8601FormatStyle().year().month().day())
        else {
            throw ConformanceError(.badMetadata, "the BLOB of \(url) has nextUpdate \(blob.nextUpdate), not YYYY-MM-DD")
        }
        return (blob, nextUpdate)
    }
}
