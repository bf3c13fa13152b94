import Auth0Passkeys
import HTTPTypes
import Hummingbird
import HummingbirdTesting

/// An ``HTTPTransport`` written outside the package: it hands each request to a Hummingbird
/// router in the same process (HummingbirdTesting's `.router` client), so no socket is opened.
///
/// It sends the path and query of the request's URL, its header fields and its body, and returns
/// the router's status, header fields and body.
struct RouterTransport: HTTPTransport {
    /// The client of `Application.test(.router)`, valid inside that call only.
    let client: any TestClientProtocol

    func send(_ request: Auth0Passkeys.HTTPRequest) async throws(TransportError) -> Auth0Passkeys.HTTPResponse {
        guard let method = HTTPTypes.HTTPRequest.Method(rawValue: request.method.rawValue) else {
            throw TransportError(.other, "no HTTP method \(request.method.rawValue)")
        }
        var fields = HTTPFields()
        for (name, value) in request.headers {
            guard let name = HTTPField.Name(name) else {
                throw TransportError(.other, "the header field name \(name) is not a token")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        let response: TestResponse
        do {
            response = try await client.execute(
                uri: Self.target(of: request.url), method: method, headers: fields,
                body: request.body.map { ByteBuffer(bytes: $0) })
        } catch is CancellationError {
            throw TransportError(.cancelled, "the request was cancelled")
        } catch {
            throw TransportError(.connectionLost, "the router failed: \(error)")
        }
        return Auth0Passkeys.HTTPResponse(
            status: response.status.code,
            headers: response.headers.map { (name: $0.name.rawName, value: $0.value) },
            body: Array(response.body.readableBytesView))
    }

    /// The request target of an absolute URL (RFC 9112 §3.2.1 origin-form): its path and query,
    /// without scheme, authority or fragment.
    static func target(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let target = afterScheme.drop { $0 != "/" }.prefix { $0 != "#" }
        return target.isEmpty ? "/" : String(target)
    }
}
