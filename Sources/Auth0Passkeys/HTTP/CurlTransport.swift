private import CCurl
import Dispatch
import FoundationEssentials
import Synchronization

/// HTTP/1.1 and HTTPS over libcurl: the ``HTTPTransport`` every Auth0 client in this library
/// uses unless given another.
///
/// - Connections are kept alive and reused: each finished transfer hands its easy handle back to
///   a small pool, and libcurl keeps the handle's connections (and DNS and TLS session caches)
///   across `curl_easy_reset`, so the next request to the same host skips the TCP and TLS
///   handshakes.
/// - Redirects are never followed (an Auth0 answer such as `202` with `Location` is read as is),
///   only `http` and `https` URLs are accepted, certificates are always verified (against the
///   system store or the CA bundle: ``Configuration/caBundlePath``, else `$CURL_CA_BUNDLE`, else
///   `$SSL_CERT_FILE`, as the `curl` tool takes them), and every transfer has a total and a connect
///   time limit. A CA bundle that is missing or unreadable fails an `https` request with
///   ``TransportError/Code/caBundleUnreadable``, naming the path, before any connection.
/// - `curl_easy_perform` blocks, so it runs on a Dispatch thread of its handle, never on Swift's
///   cooperative pool; cancelling the awaiting task aborts the transfer from libcurl's progress
///   callback, which libcurl calls at least once a second.
///
/// One transport may be shared by any number of clients and tasks; sharing it shares its
/// connections.
///
/// ```swift
/// let transport = CurlTransport(configuration: .init(timeout: .seconds(10), caBundlePath: "/etc/ssl/my-ca.pem"))
/// let auth = Authentication(clientId: clientID, domain: "login.example.com", transport: transport)
/// ```
public final class CurlTransport: HTTPTransport {
    /// Limits and trust settings of a ``CurlTransport``.
    public struct Configuration: Sendable, Hashable {
        /// The longest a whole exchange may take, connection included.
        public var timeout: Duration
        /// The longest the TCP and TLS handshakes may take.
        public var connectTimeout: Duration
        /// A PEM file of CA certificates to trust instead of the system's, or `nil` for the
        /// environment's (`$CURL_CA_BUNDLE`, `$SSL_CERT_FILE`) or else the system's.
        public var caBundlePath: String?
        /// The largest response body accepted, in bytes; a larger one fails with
        /// ``TransportError/Code/responseTooLarge``.
        public var maxResponseSize: Int
        /// How many idle easy handles (and so idle connection caches) to keep.
        public var maxIdleHandles: Int

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - timeout: the longest a whole exchange may take; 30 seconds by default.
        ///   - connectTimeout: the longest the handshakes may take; 10 seconds by default.
        ///   - caBundlePath: a PEM file of CA certificates to trust, or `nil` for the environment's or the
        ///     system's.
        ///   - maxResponseSize: the largest response body accepted; 8 MiB by default.
        ///   - maxIdleHandles: how many idle handles to keep for reuse; 4 by default.
        public init(
            timeout: Duration = .seconds(30),
            connectTimeout: Duration = .seconds(10),
            caBundlePath: String? = nil,
            maxResponseSize: Int = 8 << 20,
            maxIdleHandles: Int = 4
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.caBundlePath = caBundlePath
            self.maxResponseSize = maxResponseSize
            self.maxIdleHandles = maxIdleHandles
        }
    }

    /// The transport's limits and trust settings.
    public let configuration: Configuration

    /// The PEM file of CA certificates this transport trusts, or `nil` for the system store:
    /// ``Configuration/caBundlePath``, else `$CURL_CA_BUNDLE`, else `$SSL_CERT_FILE`
    /// (``caBundlePath(explicit:environment:)``).
    public let caBundlePath: String?

    private let idleHandles = Mutex<[EasyHandle]>([])

    /// `curl_global_init`, once per process, before the first handle (libcurl's rule).
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// `User-Agent` of every request: this library and the libcurl version.
    fileprivate static let userAgent: String = {
        let curl = String(cString: curl_version()).split(separator: " ").first.map(String.init) ?? "libcurl"
        return "Auth0Passkeys/\(Auth0ClientInfo.libraryVersion) \(curl)"
    }()

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - configuration: limits and trust settings.
    ///   - environment: where `CURL_CA_BUNDLE` and `SSL_CERT_FILE` are read when the configuration
    ///     names no CA bundle; `nil` (the default) for the process's environment.
    public init(configuration: Configuration = .init(), environment: [String: String]? = nil) {
        self.configuration = configuration
        caBundlePath = Self.caBundlePath(
            explicit: configuration.caBundlePath, environment: environment ?? ProcessInfo.processInfo.environment)
    }

    /// Performs one exchange on a pooled handle, on that handle's Dispatch thread.
    ///
    /// - Parameter request: the request; its URL must be `http` or `https`.
    /// - Returns: the final response, whatever its status; redirects are not followed.
    /// - Throws: ``TransportError`` when no complete response arrived in time, when the body
    ///   exceeds ``Configuration/maxResponseSize``, or when the awaiting task is cancelled.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard Self.globalInit == CURLE_OK else {
            throw TransportError(.other, "curl_global_init: \(String(cString: curl_easy_strerror(Self.globalInit)))")
        }
        let pooled = idleHandles.withLock { $0.popLast() }
        let handle: EasyHandle
        if let pooled { handle = pooled } else { handle = try EasyHandle() }
        let cancellation = CancellationFlag()
        var trusting = configuration
        trusting.caBundlePath = caBundlePath
        let configuration = trusting
        let result: Result<HTTPResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                handle.queue.async {
                    let transfer = Transfer(
                        limit: configuration.maxResponseSize, cancellation: cancellation)
                    continuation.resume(
                        returning: transfer.perform(request, on: handle, configuration: configuration))
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
        curl_easy_reset(handle.raw)
        idleHandles.withLock { handles in
            if handles.count < configuration.maxIdleHandles { handles.append(handle) }
        }
        return try result.get()
    }

    /// libcurl's `CURLcode` as a ``TransportError``, with the error buffer's text when it has one.
    fileprivate static func check(_ code: CURLcode, _ detail: String = "") throws(TransportError) {
        guard code != CURLE_OK else { return }
        let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        let kind: TransportError.Code
        switch code {
        case CURLE_OPERATION_TIMEDOUT: kind = .timedOut
        case CURLE_COULDNT_CONNECT: kind = .cannotConnect
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .cannotResolveHost
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR: kind = .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
            CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            kind = .tls
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: kind = .unsupportedProtocol
        case CURLE_ABORTED_BY_CALLBACK: kind = .cancelled
        case CURLE_WRITE_ERROR: kind = .responseTooLarge
        default: kind = .other
        }
        throw TransportError(kind, text)
    }
}

/// One libcurl easy handle; freed with the object.
///
/// `@unchecked Sendable`: the pool hands a handle to one transfer at a time, under its mutex.
private final class EasyHandle: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    /// Where this handle's blocking transfers run: a serial queue, which libdispatch backs with a
    /// thread of its own (overcommit), so blocked transfers never starve each other or the
    /// width-limited global queues.
    let queue = DispatchQueue(label: "Auth0Passkeys.CurlTransport")

    init() throws(TransportError) {
        guard let raw = curl_easy_init() else {
            throw TransportError(.other, "curl_easy_init failed")
        }
        self.raw = raw
    }

    deinit {
        curl_easy_cleanup(raw)
    }
}

/// Set by the task's cancellation handler, read by libcurl's progress callback.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() { flag.store(true, ordering: .relaxed) }

    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// The state of one transfer, lent to libcurl's callbacks through `Unmanaged` for the duration
/// of `curl_easy_perform`.
private final class Transfer {
    let limit: Int
    let cancellation: CancellationFlag
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var exceededLimit = false

    init(limit: Int, cancellation: CancellationFlag) {
        self.limit = limit
        self.cancellation = cancellation
    }

    func perform(_ request: HTTPRequest, on handle: EasyHandle, configuration: CurlTransport.Configuration)
        -> Result<HTTPResponse, TransportError>
    {
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        var list: UnsafeMutablePointer<curl_slist>? = nil
        defer { curl_slist_free_all(list) }
        for (name, value) in request.headers {
            list = curl_slist_append(list, "\(name): \(value)")
        }
        // No `Expect: 100-continue` round trip before a body.
        list = curl_slist_append(list, "Expect:")

        return withExtendedLifetime(self) {
            let context = Unmanaged.passUnretained(self).toOpaque()
            let raw = handle.raw
            do throws(TransportError) {
                try CurlTransport.check(ccurl_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer))
                try set(raw, CURLOPT_URL, request.url)
                try set(raw, CURLOPT_PROTOCOLS_STR, "http,https")
                try set(raw, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
                try set(raw, CURLOPT_FOLLOWLOCATION, 0)
                try set(raw, CURLOPT_NOSIGNAL, 1)
                try set(raw, CURLOPT_SSL_VERIFYPEER, 1)
                try set(raw, CURLOPT_SSL_VERIFYHOST, 2)
                try set(raw, CURLOPT_TIMEOUT_MS, milliseconds(configuration.timeout))
                try set(raw, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout))
                if let caBundlePath = configuration.caBundlePath {
                    if request.url.lowercased().hasPrefix("https:") { try CurlTransport.checkCABundle(caBundlePath) }
                    try set(raw, CURLOPT_CAINFO, caBundlePath)
                }
                try set(raw, CURLOPT_USERAGENT, CurlTransport.userAgent)
                try CurlTransport.check(ccurl_easy_setopt_slist(raw, CURLOPT_HTTPHEADER, list))
                try CurlTransport.check(ccurl_easy_setopt_write_callback(raw, CURLOPT_WRITEFUNCTION, onBody))
                try CurlTransport.check(ccurl_easy_setopt_pointer(raw, CURLOPT_WRITEDATA, context))
                try CurlTransport.check(ccurl_easy_setopt_write_callback(raw, CURLOPT_HEADERFUNCTION, onHeader))
                try CurlTransport.check(ccurl_easy_setopt_pointer(raw, CURLOPT_HEADERDATA, context))
                try CurlTransport.check(ccurl_easy_setopt_xferinfo_callback(raw, CURLOPT_XFERINFOFUNCTION, onProgress))
                try CurlTransport.check(ccurl_easy_setopt_pointer(raw, CURLOPT_XFERINFODATA, context))
                try set(raw, CURLOPT_NOPROGRESS, 0)
                try setMethod(raw, request)

                let code = curl_easy_perform(raw)
                if cancellation.isCancelled {
                    throw TransportError(.cancelled, "the request was cancelled")
                }
                if exceededLimit {
                    throw TransportError(.responseTooLarge, "the response body exceeds \(limit) bytes")
                }
                try CurlTransport.check(code, String(cString: errorBuffer))

                var status = 0
                var connects = 0
                try CurlTransport.check(ccurl_easy_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status))
                try CurlTransport.check(ccurl_easy_getinfo_long(raw, CURLINFO_NUM_CONNECTS, &connects))
                return .success(HTTPResponse(status: status, headers: headers, body: body, newConnections: connects))
            } catch {
                return .failure(error)
            }
        }
    }

    private func setMethod(_ raw: UnsafeMutableRawPointer, _ request: HTTPRequest) throws(TransportError) {
        switch request.method {
        case .get:
            try set(raw, CURLOPT_HTTPGET, 1)
        case .post, .patch, .delete:
            if request.method != .post {
                try set(raw, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
            guard let body = request.body else {
                if request.method == .post { try setBody(raw, []) }
                return
            }
            try setBody(raw, body)
        }
    }

    /// `CURLOPT_POSTFIELDSIZE_LARGE` then `CURLOPT_COPYPOSTFIELDS`: libcurl copies the bytes, so
    /// they need not outlive this call.
    private func setBody(_ raw: UnsafeMutableRawPointer, _ body: [UInt8]) throws(TransportError) {
        try CurlTransport.check(ccurl_easy_setopt_off_t(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
        let code = (body.isEmpty ? [0] : body).withUnsafeBufferPointer { bytes in
            ccurl_easy_setopt_pointer(raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        try CurlTransport.check(code)
    }

    private func set(_ raw: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) throws(TransportError) {
        try CurlTransport.check(ccurl_easy_setopt_long(raw, option, value))
    }

    private func set(_ raw: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) throws(TransportError) {
        try CurlTransport.check(ccurl_easy_setopt_string(raw, option, value))
    }

    private func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    /// Appends one header line; a status line (`HTTP/…`) starts a new response (after a `100
    /// Continue` or an interim answer), so the headers collected so far are dropped.
    func receiveHeader(_ line: UnsafeBufferPointer<UInt8>) {
        var bytes = line[...]
        while let last = bytes.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: "\n") { bytes.removeLast() }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("HTTP/") {
            headers.removeAll()
        } else if let colon = text.firstIndex(of: ":") {
            let name = String(text[..<colon])
            let value = text[text.index(after: colon)...].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            headers.append((name, String(value)))
        }
    }

    /// Appends body bytes; refuses (making libcurl fail the transfer) past the size limit.
    func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }
}

private let onBody: curl_write_callback = { data, size, count, context in
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self)
    return transfer.receiveBody(bytes) ? length : 0
}

private let onHeader: curl_write_callback = { data, size, count, context in
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length).bindMemory(to: UInt8.self))
    return length
}

private let onProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().cancellation.isCancelled ? 1 : 0
}
