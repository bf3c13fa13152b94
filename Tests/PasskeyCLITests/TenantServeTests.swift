import Foundation
import TestSupport
import Testing

@testable import passkey

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `passkey tenant serve` as a user runs it: one start line, requests answered, a clean exit on
/// SIGTERM and SIGINT.
@Suite struct TenantServeTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func servesUntilASignal(signal: Int32) async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            ["tenant", "serve", "--port", "0", "--json", "--db", ":memory:", "--client-id", "cli-test"],
            readyWhen: { $0.contains("\n") })

        let line = try JSONDecoder().decode(Passkey.Tenant.StartLine.self, from: Data(process.startOutput.utf8))
        #expect(line.url.hasPrefix("http://127.0.0.1:"))
        #expect(line.clientID == "cli-test")
        #expect(line.connection == "Username-Password-Authentication")
        #expect(line.rpID == "localhost")

        var request = URLRequest(url: try #require(URL(string: line.url + "/passkey/challenge")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"client_id":"cli-test"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("auth_session"))

        process.send(signal)
        let exit = try await process.wait()
        #expect(exit.signal == nil)
        #expect(exit.status == 0)
    }

    /// `--callback`, `--logout-url` and `--page-connect-src` reach the tenant's Web Auth.
    @Test func webAuthFlagsConfigureTheTenant() async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            [
                "tenant", "serve", "--port", "0", "--json", "--db", ":memory:", "--client-id", "cli-test",
                "--callback", "https://app.example/cb", "--logout-url", "https://app.example/bye",
                "--page-connect-src", "http://127.0.0.1:*",
            ],
            readyWhen: { $0.contains("\n") })
        let line = try JSONDecoder().decode(Passkey.Tenant.StartLine.self, from: Data(process.startOutput.utf8))
        let challenge = "z3cuvywc8W4YDiBEfGSpLffZUjB5mxuxw29Ucm6M5EE"
        func authorize(_ redirect: String) async throws -> (Int, String?) {
            let query =
                "response_type=code&client_id=cli-test&code_challenge=\(challenge)&code_challenge_method=S256"
                + "&redirect_uri=" + (redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let url = try #require(URL(string: line.url + "/authorize?" + query))
            let (_, response) = try await URLSession.shared.data(from: url)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "Content-Security-Policy"))
        }
        let (configured, csp) = try await authorize("https://app.example/cb")
        #expect(configured == 200)
        #expect(csp?.contains("connect-src 'self' http://127.0.0.1:*;") == true)
        #expect(try await authorize("http://127.0.0.1:5000/callback").0 == 400)
        let logout = try #require(URL(string: line.url + "/v2/logout?returnTo=http%3A%2F%2F127.0.0.1%2F"))
        let (_, refused) = try await URLSession.shared.data(from: logout)
        #expect((refused as? HTTPURLResponse)?.statusCode == 400)
    }
}
