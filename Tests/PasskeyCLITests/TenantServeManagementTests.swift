import ArgumentParser
import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import passkey

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `passkey tenant serve` names its machine-to-machine client (auth0-passkey-api.md §15.1): the
/// JSON start line carries the ID, the secret and the management audience, which get a token; the
/// text line carries the ID only.
@Suite struct TenantServeManagementTests {
    /// `POST /oauth/token` with the client credentials of `line`: the status and the scope granted.
    private func token(_ line: Passkey.Tenant.StartLine) async throws -> (Int, String?) {
        var request = URLRequest(url: try #require(URL(string: line.url + "/oauth/token")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode([
            "grant_type": "client_credentials", "client_id": line.m2mClientID,
            "client_secret": line.m2mClientSecret, "audience": line.managementAudience,
        ])
        let (body, response) = try await URLSession.shared.data(for: request)
        let json = try JSONDecoder().decode([String: JSONValue].self, from: body)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json["scope"]?.stringValue)
    }

    @Test func theJSONLineNamesAClientThatGetsAToken() async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            ["tenant", "serve", "--port", "0", "--json", "--db", ":memory:", "--m2m-scope", "read:users"],
            readyWhen: { $0.contains("\n") })
        let line = try JSONDecoder().decode(Passkey.Tenant.StartLine.self, from: Data(process.startOutput.utf8))
        #expect(line.managementAudience == "https://localhost/api/v2/")
        #expect(line.m2mClientID.count == 32)
        #expect(line.m2mClientSecret.count == 64)
        let (status, scope) = try await token(line)
        #expect(status == 200)
        #expect(scope == "read:users")
        process.send(SIGTERM)
        _ = try await process.wait()
    }

    @Test func theTextLineNamesTheClientButNotItsSecret() async throws {
        let process = try await ChildProcess.start(
            CLIProcess.executable, ["tenant", "serve", "--port", "0", "--db", ":memory:"],
            readyWhen: { $0.contains("\n") })
        #expect(process.startOutput.contains(" m2m_client_id="))
        #expect(!process.startOutput.contains("secret"))
        process.send(SIGTERM)
        _ = try await process.wait()
    }

    @Test func anUnknownScopeIsRefused() throws {
        #expect(throws: (any Error).self) {
            try Passkey.parseAsRoot(["tenant", "serve", "--m2m-scope", "update:clients"])
        }
    }
}
