import Foundation
import TestSupport
import Testing

@testable import passkey

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `passkey tenant serve --require-dpop --dpop-nonce` (auth0-passkey-api.md §16.1, §16.3): no token
/// without a DPoP proof, and a fresh `DPoP-Nonce` on every token answer.
@Suite struct TenantServeDPoPTests {
    /// The token endpoint's answer to a refresh grant without a proof.
    func tokenWithoutProof(_ flags: [String]) async throws -> (status: Int, body: String, nonce: String?) {
        let process = try await ChildProcess.start(
            CLIProcess.executable,
            ["tenant", "serve", "--port", "0", "--json", "--db", ":memory:", "--client-id", "cli-test"] + flags,
            readyWhen: { $0.contains("\n") })
        let line = try JSONDecoder().decode(Passkey.Tenant.StartLine.self, from: Data(process.startOutput.utf8))
        var request = URLRequest(url: try #require(URL(string: line.url + "/oauth/token")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"client_id":"cli-test","grant_type":"refresh_token","refresh_token":"x"}"#.utf8)
        let (body, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        process.send(SIGTERM)
        _ = try await process.wait()
        return (http.statusCode, String(decoding: body, as: UTF8.self), http.value(forHTTPHeaderField: "DPoP-Nonce"))
    }

    @Test func theFlagsRequireProofsAndNonces() async throws {
        let strict = try await tokenWithoutProof(["--require-dpop", "--dpop-nonce"])
        #expect(strict.status == 400)
        #expect(strict.body.contains(#""error":"invalid_dpop_proof""#))
        #expect(strict.nonce?.isEmpty == false)

        // Without the flags the unknown refresh token itself is refused: 403, as on Auth0.
        let plain = try await tokenWithoutProof([])
        #expect(plain.status == 403)
        #expect(plain.body.contains(#""error":"invalid_grant""#))
        #expect(plain.nonce == nil)
    }
}
