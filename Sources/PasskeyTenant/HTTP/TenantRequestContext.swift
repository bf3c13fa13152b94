public import Hummingbird
public import JSONBodies
import WebAuthn

/// The request context of the tenant's router: Hummingbird's core context, the client's address,
/// which failed attempts are counted against, and the tenant's body codecs: bodies are read by
/// the package's one JSON body decoder with the tenant's refusals (`request.decode(as:context:)`)
/// and answers written by
/// ``TenantResponseEncoder`` (`ResponseEncodable` values).
public struct TenantRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The client's IP address; nil when the channel has none (router tests).
    public let remoteAddress: String?
    /// The largest body read: the tenant's ``TenantConfiguration/maxBodySize``, which its router
    /// sets before any route runs.
    public var maxUploadSize: Int

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
        maxUploadSize = TenantConfiguration.defaultMaxBodySize
    }

    /// JSON bodies, refused in the Authentication API's terms.
    public var requestDecoder: JSONRequestDecoder { .tenant }

    /// Compact JSON that is never cached.
    public var responseEncoder: TenantResponseEncoder { TenantResponseEncoder() }
}

extension JSONRequestDecoder {
    /// The tenant's: a request body as JSON (auth0-passkey-api.md §0.2: every body is a JSON
    /// object), at most the context's `maxUploadSize` bytes, with every refusal a 4xx
    /// ``TenantError``: `unsupported_media_type` (415) for a content type other than
    /// `application/json` (parameters allowed), `payload_too_large` (413), `invalid_request`
    /// naming the member for JSON that does not decode.
    static let tenant = JSONRequestDecoder(
        .init(
            tooLarge: { TenantError(.payloadTooLarge, status: 413, "The request body is larger than \($0) bytes.") },
            malformed: { TenantError.invalidRequest("Malformed body: \($0)") },
            unsupportedMediaType: {
                TenantError(.unsupportedMediaType, status: 415, "The body must be application/json.")
            }))

    /// Reads `request`'s body as `type`, from JSON or from `application/x-www-form-urlencoded`
    /// (the token endpoint's OAuth form, RFC 6749 §4.1.3, Appendix B), whose parameters are read
    /// as a JSON object of strings.
    ///
    /// - Throws: as ``tenant`` does, but for `application/x-www-form-urlencoded`; `invalid_request`
    ///   for a form parameter given twice (RFC 6749 §3.2).
    func decode<Body: Decodable>(_ type: Body.Type, jsonOrFormFrom request: Request, context: some RequestContext)
        async throws -> Body
    {
        let mediaType = Self.mediaType(of: request)
        let isForm = mediaType == "application/x-www-form-urlencoded"
        guard mediaType == "application/json" || isForm else {
            throw TenantError(
                .unsupportedMediaType, status: 415,
                "The body must be application/json or application/x-www-form-urlencoded.")
        }
        var bytes = try await self.bytes(of: request, limit: context.maxUploadSize)
        if isForm {
            let form = FormParameters(String(decoding: bytes, as: UTF8.self))
            if let name = form.repeated.first {
                throw TenantError.invalidRequest("Parameter \(name.prefix(64)) is given more than once.")
            }
            bytes = WebAuthnJSON.encode(form.values)
        }
        return try decode(type, json: bytes)
    }
}

/// Hands the configured body limit to every request's context, where ``TenantRequestDecoder``
/// reads it.
struct BodyLimitMiddleware: RouterMiddleware {
    let limit: Int

    func handle(
        _ request: Request, context: TenantRequestContext,
        next: (Request, TenantRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.maxUploadSize = limit
        return try await next(request, context)
    }
}
