import HTTPTypes
public import Hummingbird
public import JSONBodies
import NIOCore
import WebAuthn

/// The request context of the control server's router: Hummingbird's core context with the
/// control API's body codecs. Bodies are JSON of at most ``ControlServer/maxBodySize`` bytes (an
/// empty one reads as `{}`), read by the package's one JSON body decoder; answers are WebDriver's
/// `{"value": …}`, written by ``ControlResponseEncoder``.
public struct ControlRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }

    /// The largest body read: ``ControlServer/maxBodySize``.
    public var maxUploadSize: Int { ControlServer.maxBodySize }

    /// JSON bodies, refused as `invalid argument` (`JSONRequestDecoder`, the package's
    /// one body decoder, with the control API's refusals).
    public var requestDecoder: JSONRequestDecoder { .control }

    /// WebDriver's `{"value": …}`.
    public var responseEncoder: ControlResponseEncoder { ControlResponseEncoder() }
}

extension JSONRequestDecoder {
    /// The control API's: a command's body (WebDriver's `parameters`, W3C WebDriver §6.3) as
    /// JSON, an empty one read as `{}`; `invalid argument` with 413 for a body over the limit, with
    /// 400 for JSON that does not decode as the command's (naming the member).
    static let control = JSONRequestDecoder(
        .init(
            tooLarge: { ControlError.tooLarge(limit: $0) },
            malformed: { ControlError.invalidArgument("malformed body: \($0)") }, emptyBody: Array("{}".utf8)))
}

/// Writes a command's result as WebDriver's `{"value": VALUE}` (W3C WebDriver §6.5 "Send a
/// response"): compact JSON with sorted keys, never cached.
public struct ControlResponseEncoder: ResponseEncoder {
    /// Creates the encoder.
    public init() {}

    /// A 200 answer carrying `value`.
    ///
    /// - Parameters:
    ///   - value: the command's result.
    ///   - request: the request answered.
    ///   - context: its context.
    /// - Returns: the response.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) -> Response {
        Self.response(value)
    }

    /// `{"value": VALUE}` with any status: results, and errors in WebDriver's shape.
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        -> Response
    {
        var headers = headers
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        let body = Array(#"{"value":"#.utf8) + WebAuthnJSON.encode(value) + [UInt8(ascii: "}")]
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// A command's result, which the context's ``ControlResponseEncoder`` answers as `{"value": …}`.
struct ControlValue<Value: Encodable>: ResponseGenerator {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try context.responseEncoder.encode(value, from: request, context: context)
    }
}

extension ControlValue where Value == JSONValue {
    /// `{"value": null}`: WebDriver's success without data.
    static var null: Self { ControlValue(JSONValue.null) }
}
