import ArgumentParser
import Auth0Passkeys
import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import passkey

/// `passkey tenant serve --app` (issue 39): applications in Auth0's key names, each listed on the
/// JSON start line with its client ID and, for a confidential one, its secret; the secret never in
/// the text line nor in a log line.
@Suite struct TenantServeApplicationsTests {
    /// The JSON start line's `applications`.
    struct Applications: Decodable {
        struct Application: Decodable {
            let name: String
            let app_type: String
            let client_id: String
            let client_secret: String?
            let token_endpoint_auth_method: String
        }
        let url: String
        let applications: [Application]
    }

    @Test func theJSONLineListsEachApplicationAndBasicAuthenticatesTheWebApp() async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            [
                "tenant", "serve", "--port", "0", "--json", "--db", ":memory:", "-v",
                "--app", "name=web,app_type=regular_web,token_endpoint_auth_method=client_secret_basic",
                "--app", "name=spa,app_type=spa,client_id=spa-client,callbacks=http://127.0.0.1/cb",
            ],
            readyWhen: { $0.contains("\n") })
        let line = try JSONDecoder().decode(Applications.self, from: Data(process.startOutput.utf8))
        #expect(line.applications.map(\.name) == ["web", "spa"])
        let web = line.applications[0]
        let spa = line.applications[1]
        #expect(web.app_type == "regular_web" && web.token_endpoint_auth_method == "client_secret_basic")
        #expect(web.client_id.count == 32)
        let secret = try #require(web.client_secret)
        #expect(secret.count == 64)
        #expect(spa.client_id == "spa-client" && spa.client_secret == nil && spa.token_endpoint_auth_method == "none")

        // libcurl, not URLSession: FoundationNetworking waits for credentials on a 401 with a Basic challenge.
        func token(_ secret: String) async throws -> HTTPResponse {
            try await CurlTransport().send(
                HTTPRequest(
                    method: .post, url: line.url + "/oauth/token",
                    headers: [
                        (name: "Content-Type", value: "application/x-www-form-urlencoded"),
                        (
                            name: "Authorization",
                            value: "Basic " + Data("\(web.client_id):\(secret)".utf8).base64EncodedString()
                        ),
                    ],
                    body: Array("grant_type=refresh_token&refresh_token=unknown".utf8)))
        }
        let authenticated = try await token(secret)
        // Authenticated, then the grant refused: an unknown refresh token is 403, as on Auth0.
        #expect(authenticated.status == 403, "authenticated, then the grant refused")
        #expect(String(decoding: authenticated.body, as: UTF8.self).contains("invalid_grant"))
        let refused = try await token("wrong")
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == #"Basic realm="localhost""#)

        process.send(SIGTERM)
        let log = String(decoding: try await process.wait().standardError, as: UTF8.self)
        #expect(log.contains("POST /oauth/token 401"), "the request was logged: \(log)")
        #expect(!log.contains(secret))
    }

    @Test func theTextLineNamesNoApplicationSecret() async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            ["tenant", "serve", "--port", "0", "--db", ":memory:", "--app", "name=web,app_type=regular_web"],
            readyWhen: { $0.contains("\n") })
        #expect(!process.startOutput.contains("secret"))
        process.send(SIGTERM)
        _ = try await process.wait()
    }

    @Test(arguments: [
        "name=web", "name=web,app_type=regular_web,token_endpoint_auth_method=none", "name=a,app_type=spa,color=red",
    ])
    func aBadApplicationIsRefused(app: String) throws {
        #expect(throws: (any Error).self) {
            try Passkey.parseAsRoot(["tenant", "serve", "--app", app])
        }
    }
}
