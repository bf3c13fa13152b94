import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import Testing
import WebAuthn

/// CORS (Fetch §3.2) on the routes a single-page app calls: an application's Allowed Web Origins
/// and Allowed Origins get their exact origin back, any other origin gets no CORS header, and
/// preflights are answered for the first and refused for the second.
@Suite struct CORSTests {
    /// The CORS headers an answer carries.
    static func corsHeaders(_ result: HTTPResult) -> [String] {
        result.headers.map(\.name.canonicalName).filter { $0.hasPrefix("access-control-") }
    }

    static func get(_ http: any TestClientProtocol, _ path: String, origin: String?) async throws -> HTTPResult {
        var headers: HTTPFields = [:]
        if let origin { headers[.origin] = origin }
        return try await http.send(.get, path, contentType: nil, headers: headers)
    }

    static func preflight(
        _ http: any TestClientProtocol, _ path: String, origin: String, method: String = "POST",
        headers requested: String = "content-type,dpop,auth0-client,authorization"
    ) async throws -> HTTPResult {
        try await http.send(
            .options, path, contentType: nil,
            headers: [
                .origin: origin, .accessControlRequestMethod: method, .accessControlRequestHeaders: requested,
            ])
    }

    @Test(arguments: [SinglePageApp.origin, SinglePageApp.corsOrigin, SinglePageApp.subdomainOrigin])
    func anAllowedOriginGetsItselfBackNeverAStar(origin: String) async throws {
        let app = try await SinglePageApp()
        for path in ["/.well-known/openid-configuration", "/.well-known/jwks.json"] {
            let result = try await app.harness.router { http in try await Self.get(http, path, origin: origin) }
            #expect(result.status == .ok)
            #expect(result.headers[.accessControlAllowOrigin] == origin, "\(path)")
            #expect(result.headers[.accessControlAllowCredentials] == "true")
            #expect(result.headers[values: .accessControlAllowOrigin].count == 1)
            #expect(result.headers[.accessControlExposeHeaders] == "DPoP-Nonce, WWW-Authenticate")
            #expect(result.headers[values: .vary].contains("Origin"))
        }
    }

    @Test(arguments: [
        "https://evil.example", "http://localhost:3001", "https://localhost:3000", "http://localhost:3000/",
        "https://example.com", "https://a.b.example.com", "https://shop.example.com.evil", "null",
        "http://localhost:3000, https://evil.example", "*",
    ])
    func aForeignOriginGetsNoCORSHeader(origin: String) async throws {
        let app = try await SinglePageApp()
        let (discovery, token, userinfo) = try await app.harness.router { http in
            (
                try await Self.get(http, "/.well-known/openid-configuration", origin: origin),
                try await http.send(
                    .post, "/oauth/token", raw: "grant_type=refresh_token&client_id=x&refresh_token=y",
                    contentType: "application/x-www-form-urlencoded", headers: [.origin: origin]),
                try await Self.get(http, "/userinfo", origin: origin)
            )
        }
        #expect(discovery.status == .ok)
        for result in [discovery, token, userinfo] {
            #expect(Self.corsHeaders(result).isEmpty, "\(origin): \(Self.corsHeaders(result))")
            #expect(result.headers[values: .vary].contains("Origin"))
        }
    }

    @Test func errorAnswersCarryCORSAndExposeWWWAuthenticate() async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            try await Self.get(http, "/userinfo", origin: SinglePageApp.origin)
        }
        #expect(result.status == .unauthorized)
        #expect(result.headers[.wwwAuthenticate] != nil)
        #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
        #expect(result.headers[.accessControlExposeHeaders]?.contains("WWW-Authenticate") == true)
    }

    @Test(arguments: [
        "/oauth/token", "/oauth/revoke", "/userinfo", "/.well-known/jwks.json", "/passkey/challenge",
        "/me/v1/authentication-methods",
    ])
    func aPreflightFromAnAllowedOriginIsAnswered(path: String) async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            try await Self.preflight(http, path, origin: SinglePageApp.origin)
        }
        #expect(result.status == .noContent)
        #expect(result.headers[.accessControlAllowOrigin] == SinglePageApp.origin)
        #expect(result.headers[.accessControlAllowCredentials] == "true")
        let methods = (result.headers[.accessControlAllowMethods] ?? "").split(separator: ", ")
        #expect(methods.contains("POST") && methods.contains("GET"))
        let headers = (result.headers[.accessControlAllowHeaders] ?? "").split(separator: ", ").map {
            $0.lowercased()
        }
        for name in ["authorization", "content-type", "dpop", "auth0-client"] {
            #expect(headers.contains(name), "\(name)")
        }
        #expect(Int(result.headers[.accessControlMaxAge] ?? "") ?? 0 > 0)
        #expect(result.body.isEmpty)
    }

    @Test(arguments: ["https://evil.example", "null", "http://localhost:3001"])
    func aPreflightFromAForeignOriginIsRefused(origin: String) async throws {
        let app = try await SinglePageApp()
        let result = try await app.harness.router { http in
            try await Self.preflight(http, "/oauth/token", origin: origin)
        }
        #expect((400..<500).contains(result.status.code))
        #expect(Self.corsHeaders(result).isEmpty)
    }

    @Test(arguments: ["/authorize", "/v2/logout", "/u/passkey/options", "/api/v2/users", "/oauth/tokenx"])
    func routesThatAreNotCORSRoutesGetNoCORSHeader(path: String) async throws {
        let app = try await SinglePageApp()
        let (get, preflight) = try await app.harness.router { http in
            (
                try await Self.get(http, path, origin: SinglePageApp.origin),
                try await Self.preflight(http, path, origin: SinglePageApp.origin)
            )
        }
        #expect(Self.corsHeaders(get).isEmpty, "\(path)")
        #expect(Self.corsHeaders(preflight).isEmpty, "\(path)")
        #expect(preflight.status.code < 500)
    }

    @Test func aTenantWithoutWebOriginsAllowsNone() async throws {
        let harness = try await TenantHarness()
        let (get, preflight) = try await harness.router { http in
            (
                try await Self.get(http, "/.well-known/jwks.json", origin: "http://localhost:3000"),
                try await Self.preflight(http, "/oauth/token", origin: "http://localhost:3000")
            )
        }
        #expect(Self.corsHeaders(get).isEmpty)
        #expect(Self.corsHeaders(preflight).isEmpty)
        #expect(preflight.status == .forbidden)
    }

    @Test(arguments: [
        "web_origins=http://localhost:3000/app", "web_origins=localhost:3000", "allowed_origins=https://*",
        "allowed_origins=https://a.*.example.com", "web_origins=https://user@example.com",
        "web_origins=https://example.com?x=1", "allowed_origins=https://*example.com", "web_origins=*",
    ])
    func aConfiguredOriginThatIsNotAnOriginIsRefused(setting: String) throws {
        #expect(throws: TenantError.self, "\(setting)") {
            try TenantApplication(option: "name=spa,app_type=spa,callbacks=http://localhost:3000/cb,\(setting)")
        }
    }

    @Test func originsAreConfiguredWithAuth0sKeys() throws {
        let app = try TenantApplication(
            option: "name=spa,app_type=spa,callbacks=http://localhost:3000/cb,web_origins=http://localhost:3000,"
                + "web_origins=https://*.example.com,allowed_origins=https://api.example.org/")
        #expect(app.webOrigins == ["http://localhost:3000", "https://*.example.com"])
        #expect(app.allowedOrigins == ["https://api.example.org/"])
    }
}
