public import Hummingbird
import WebAuthn

/// The one request-body decoder of the package's Hummingbird servers (the local tenant and the
/// control server): a body of at most the context's `maxUploadSize` bytes, read as JSON by
/// ``WebAuthnJSON``, every refusal in the server's own error type.
///
/// A server differs only in its ``Refusals``: what a body too large, malformed JSON and (when it
/// checks) another content type throw, and what an empty body reads as.
///
/// ```swift
/// public var requestDecoder: JSONRequestDecoder {
///     JSONRequestDecoder(.init(tooLarge: { MyError.tooLarge($0) }, malformed: { MyError.syntax($0) }))
/// }
/// ```
public struct JSONRequestDecoder: RequestDecoder, Sendable {
    /// How a server refuses a body.
    public struct Refusals: Sendable {
        let tooLarge: @Sendable (_ limit: Int) -> any Error
        let malformed: @Sendable (_ reason: String) -> any Error
        let unsupportedMediaType: (@Sendable () -> any Error)?
        let emptyBody: [UInt8]?

        /// The refusals of a server.
        ///
        /// - Parameters:
        ///   - tooLarge: the error for a body over the limit (given).
        ///   - malformed: the error for a body that does not decode, given the decoder's reason
        ///     (which names the member).
        ///   - unsupportedMediaType: the error for a content type other than `application/json`
        ///     (parameters allowed); nil when the content type is not checked.
        ///   - emptyBody: what an empty body reads as; nil to decode it as it is.
        package init(
            tooLarge: @escaping @Sendable (_ limit: Int) -> any Error,
            malformed: @escaping @Sendable (_ reason: String) -> any Error,
            unsupportedMediaType: (@Sendable () -> any Error)? = nil, emptyBody: [UInt8]? = nil
        ) {
            self.tooLarge = tooLarge
            self.malformed = malformed
            self.unsupportedMediaType = unsupportedMediaType
            self.emptyBody = emptyBody
        }
    }

    let refusals: Refusals

    /// A decoder refusing bodies with `refusals`.
    package init(_ refusals: Refusals) {
        self.refusals = refusals
    }

    /// Reads `request`'s body as `type`.
    ///
    /// - Parameters:
    ///   - type: what the body holds.
    ///   - request: the request.
    ///   - context: its context, whose `maxUploadSize` bounds the body.
    /// - Returns: the body.
    /// - Throws: the server's refusal for another content type (when it checks), a body over the
    ///   limit, or JSON that does not decode as `type`.
    public func decode<Body: Decodable>(_ type: Body.Type, from request: Request, context: some RequestContext)
        async throws -> Body
    {
        if let unsupported = refusals.unsupportedMediaType, Self.mediaType(of: request) != "application/json" {
            throw unsupported()
        }
        return try decode(type, json: await bytes(of: request, limit: context.maxUploadSize))
    }

    /// The media type of `request`'s `Content-Type`, lower-cased, without parameters or white space.
    package static func mediaType(of request: Request) -> String {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        return String(contentType.split(separator: ";").first?.filter { !$0.isWhitespace } ?? "")
    }

    /// The body's bytes, at most `limit` of them; an empty body as ``Refusals``' `emptyBody` says.
    ///
    /// - Throws: the server's refusal of a body over `limit`.
    package func bytes(of request: Request, limit: Int) async throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = Array(try await request.body.collect(upTo: limit).readableBytesView)
        } catch {
            throw refusals.tooLarge(limit)
        }
        return bytes.isEmpty ? refusals.emptyBody ?? bytes : bytes
    }

    /// JSON `bytes` as `type`.
    ///
    /// - Throws: the server's refusal of malformed JSON, with the decoder's reason.
    package func decode<Body: Decodable>(_ type: Body.Type, json bytes: [UInt8]) throws -> Body {
        do {
            return try WebAuthnJSON.decode(type, from: bytes)
        } catch {
            throw refusals.malformed(error.reason)
        }
    }
}
