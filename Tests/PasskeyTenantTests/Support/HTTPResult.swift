import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import WebAuthn

/// One answer of the tenant, read whole.
struct HTTPResult: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: [UInt8]

    /// The body decoded as `type`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(body))
    }

    /// The body as a JSON object.
    var json: [String: JSONValue] {
        (try? JSONDecoder().decode([String: JSONValue].self, from: Data(body))) ?? [:]
    }

    /// The `error` (Authentication API) or `type` (My Account) of an error body.
    var errorCode: String? {
        json["error"]?.stringValue ?? json["type"]?.stringValue
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

extension TestClientProtocol {
    /// Sends `body` as JSON.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json body: some Encodable, bearer: String? = nil,
        headers: HTTPFields = [:]
    ) async throws -> HTTPResult {
        let bytes = try JSONEncoder().encode(body)
        return try await send(
            method, uri, raw: String(decoding: bytes, as: UTF8.self), bearer: bearer, headers: headers)
    }

    /// Sends `raw` as the body, as `contentType`.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, raw: String? = nil, contentType: String? = "application/json",
        bearer: String? = nil, headers: HTTPFields = [:]
    ) async throws -> HTTPResult {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        let response = try await executeRequest(
            uri: uri, method: method, headers: headers, body: raw.map { ByteBuffer(string: $0) })
        return HTTPResult(
            status: response.status, headers: response.headers, body: Array(response.body.readableBytesView))
    }
}

/// Expects `result` to be a refusal with the error `code` (`error`, or My Account's `type`), and,
/// when given, the `status`, an `error_description` that contains `reason`, or one that is
/// `description` exactly.
func expectRefused(
    _ result: HTTPResult, _ code: String?, status: HTTPResponse.Status? = nil, saying reason: String? = nil,
    description: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    if let status {
        #expect(result.status == status, "\(result.text)", sourceLocation: sourceLocation)
    }
    if let code {
        #expect(result.errorCode == code, sourceLocation: sourceLocation)
    }
    if let reason {
        #expect(
            result.json["error_description"]?.stringValue?.contains(reason) == true, "\(result.text)",
            sourceLocation: sourceLocation)
    }
    if let description {
        #expect(result.json["error_description"] == .string(description), sourceLocation: sourceLocation)
    }
}
