import HTTPTypes
public import Hummingbird
import NIOCore
import WebAuthn

/// The request context of the control server's router: Hummingbird's core context with the
/// control API's body codecs. Bodies are JSON of at most ``ControlServer/maxBodySize`` bytes (an
/// empty one reads as `{}`), read by ``ControlRequestDecoder``; answers are WebDriver's
/// `{"value": …}`, written by ``ControlResponseEncoder``.
public struct ControlRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
    }

    /// The largest body read: ``ControlServer/maxBodySize``.
    public var maxUploadSize: Int { ControlServer.maxBodySize }

    /// JSON bodies, refused as `invalid argument`.
    public var requestDecoder: ControlRequestDecoder { ControlRequestDecoder() }

    /// WebDriver's `{"value": …}`.
    public var responseEncoder: ControlResponseEncoder { ControlResponseEncoder() }
}

/// Reads a command's body (WebDriver's `parameters`, W3C WebDriver §6.3) as JSON, with every
/// refusal a 4xx ``ControlError``.
public struct ControlRequestDecoder: RequestDecoder {
    /// Creates the decoder.
    public init() {}

    /// Reads `request`'s body as `type`; an empty body reads as `{}`.
    ///
    /// - Parameters:
    ///   - type: what the body holds.
    ///   - request: the request.
    ///   - context: its context, which bounds the body's size.
    /// - Returns: the body.
    /// - Throws: `invalid argument` with 413 for a body over the limit, with 400 for JSON that
    ///   does not decode as `type` (naming the member).
    public func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: some RequestContext)
        async throws -> Body
    {
        let bytes: [UInt8]
        do {
            let buffer = try await request.body.collect(upTo: context.maxUploadSize)
            bytes = buffer.readableBytes == 0 ? Array("{}".utf8) : Array(buffer.readableBytesView)
        } catch {
            throw ControlError.tooLarge(limit: context.maxUploadSize)
        }
        do {
            return try WebAuthnJSON.decode(type, from: bytes)
        } catch {
            throw ControlError.invalidArgument("malformed body: \(error.reason)")
        }
    }
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
