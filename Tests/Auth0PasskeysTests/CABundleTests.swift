import Auth0Passkeys
import Foundation
import PasskeyTenant
import TestSupport
import Testing

/// `CurlTransport`'s CA bundle against the tenant served over HTTPS with a certificate a CA made
/// in the test issued: the explicit path, else `CURL_CA_BUNDLE`, else `SSL_CERT_FILE` (curl's
/// order), and a missing bundle named as such rather than failing the handshake.
@Suite(.temporaryDirectory) struct CABundleTests {
    @Test func theExplicitPathWinsThenCurlCABundleThenSSLCertFile() {
        let both = ["CURL_CA_BUNDLE": "/curl.pem", "SSL_CERT_FILE": "/ssl.pem"]
        #expect(CurlTransport.caBundlePath(explicit: "/flag.pem", environment: both) == "/flag.pem")
        #expect(CurlTransport.caBundlePath(explicit: nil, environment: both) == "/curl.pem")
        #expect(CurlTransport.caBundlePath(explicit: nil, environment: ["SSL_CERT_FILE": "/ssl.pem"]) == "/ssl.pem")
        #expect(CurlTransport.caBundlePath(explicit: nil, environment: ["CURL_CA_BUNDLE": ""]) == nil)
        #expect(CurlTransport(environment: [:]).caBundlePath == nil)
        let flagged = CurlTransport(configuration: .init(caBundlePath: "/flag.pem"), environment: both)
        #expect(flagged.caBundlePath == "/flag.pem")
    }

    @Test func aPrivateCAIsTrustedOnlyWhenNamed() async throws {
        let directory = try TemporaryDirectory.current
        let files = try TestCertificateAuthority().serverFiles(in: directory.path)
        let tenant = try await TestTenant.open()
        let tls = TenantTLS(certificateChainPath: files.certificateChain, privateKeyPath: files.privateKey)
        try await tenant.serving(tls: tls) { endpoint in
            let request = HTTPRequest(method: .get, url: endpoint.baseURL + "/.well-known/jwks.json")
            #expect(endpoint.baseURL.hasPrefix("https://"))

            let untrusted = await #expect(throws: TransportError.self) {
                try await CurlTransport(environment: [:]).send(request)
            }
            #expect(untrusted?.code == .tls)

            let missing = directory.appending("missing.pem")
            let unreadable = await #expect(throws: TransportError.self) {
                try await CurlTransport(environment: ["SSL_CERT_FILE": missing]).send(request)
            }
            #expect(unreadable?.code == .caBundleUnreadable)
            #expect(unreadable?.reason.contains(missing) == true)

            for transport in [
                CurlTransport(configuration: .init(caBundlePath: files.caCertificate), environment: [:]),
                CurlTransport(environment: ["SSL_CERT_FILE": files.caCertificate]),
                CurlTransport(environment: ["CURL_CA_BUNDLE": files.caCertificate, "SSL_CERT_FILE": missing]),
                CurlTransport(
                    configuration: .init(caBundlePath: files.caCertificate), environment: ["CURL_CA_BUNDLE": missing]),
            ] {
                let response = try await transport.send(request)
                #expect(response.status == 200)
            }
        }
    }
}
