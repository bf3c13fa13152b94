import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// `GET /api/v2/users` (issue 39): Auth0's v3 search over the tenant's users, its paging, totals,
/// sort and fields, and every query it cannot run refused as `invalid_query_string`.
@Suite struct ManagementUserSearchTests {
    /// Four users: Ada (verified) and Adam share a prefix, Bob and Carol do not.
    static let users: [[String: JSONValue]] = [
        ["email": .string("ada@example.com"), "name": .string("Ada Lovelace"), "email_verified": .bool(true)],
        ["email": .string("Adam@example.com"), "name": .string("Adam Smith")],
        ["email": .string("bob@example.com"), "name": .string("Bob")],
        ["email": .string("carol@sample.org"), "username": .string("carol")],
    ]

    /// `/api/v2/users?` with `parameters` percent-encoded.
    static func path(_ parameters: [(String, String)]) -> String {
        "/api/v2/users?" + parameters.map { "\($0)=\(PercentEncoding.encode($1))" }.joined(separator: "&")
    }

    /// Runs `body` with the four users created and a token that reads them.
    private func withUsers<Value: Sendable>(
        _ body: @Sendable (_ http: any TestClientProtocol, _ token: String, _ ids: [String]) async throws -> Value
    ) async throws -> Value {
        let harness = try await TenantHarness()
        return try await harness.router { http in
            let token = try await harness.managementToken(http)
            var ids: [String] = []
            for user in Self.users {
                let body = user.merging(["connection": .string("Username-Password-Authentication")]) { $1 }
                let created = try await http.send(.post, "/api/v2/users", json: body, bearer: token)
                ids.append(try #require(created.json["user_id"]?.stringValue, "\(created.text)"))
            }
            return try await body(http, token, ids)
        }
    }

    /// The emails of an array of users.
    private static func emails(_ result: HTTPResult) throws -> [String] {
        try result.decode([JSONValue].self).compactMap { $0.objectValue?["email"]?.stringValue }
    }

    @Test func theQueryLanguageFindsTheRightUsers() async throws {
        let queries: [(String, [String])] = [
            (#"email:"ada@example.com""#, ["ada@example.com"]),
            (#"email:"ADA@Example.com""#, ["ada@example.com"]),
            ("email:ada*", ["ada@example.com", "adam@example.com"]),
            (#"name:"Adam Smith""#, ["adam@example.com"]),
            ("name:bob", ["bob@example.com"]),
            ("email_verified:true", ["ada@example.com"]),
            ("email:ada* AND email_verified:false", ["adam@example.com"]),
            ("email:ada* name:Adam*", ["adam@example.com"]),
            (#"email:bob* OR name:"Ada Lovelace""#, ["ada@example.com", "bob@example.com"]),
            ("NOT email:ada*", ["bob@example.com", "carol@sample.org"]),
            ("(email:bob* OR email:carol*) AND NOT username:carol", ["bob@example.com"]),
            ("username:car*", ["carol@sample.org"]),
            ("email:nobody*", []),
            ("", ["ada@example.com", "adam@example.com", "bob@example.com", "carol@sample.org"]),
        ]
        let results = try await withUsers { http, token, _ in
            var results: [(String, HTTPResult)] = []
            for (query, _) in queries {
                let path = Self.path([("q", query), ("search_engine", "v3"), ("sort", "email:1")])
                results.append((query, try await http.send(.get, path, bearer: token)))
            }
            return results
        }
        for ((query, result), (_, expected)) in zip(results, queries) {
            #expect(result.status == .ok, "\(query): \(result.text)")
            #expect(try Self.emails(result) == expected, "\(query)")
        }
    }

    @Test func aUserIsFoundByID() async throws {
        let (ids, result) = try await withUsers { http, token, ids in
            (ids, try await http.send(.get, Self.path([("q", "user_id:\"\(ids[2])\"")]), bearer: token))
        }
        let found = try result.decode([JSONValue].self)
        #expect(found.map { $0.objectValue?["user_id"] } == [.string(ids[2])], "\(result.text)")
    }

    @Test func pagesCarryTheirTotals() async throws {
        let pages = try await withUsers { http, token, _ in
            var pages: [HTTPResult] = []
            for page in 0..<3 {
                let path = Self.path([
                    ("page", String(page)), ("per_page", "2"), ("include_totals", "true"), ("sort", "email:1"),
                ])
                pages.append(try await http.send(.get, path, bearer: token))
            }
            return pages
        }
        for (index, page) in pages.enumerated() {
            #expect(page.status == .ok, "\(page.text)")
            #expect(Set(page.json.keys) == ["start", "limit", "length", "total", "users"])
            #expect(page.json["start"] == .number(Double(index * 2)))
            #expect(page.json["limit"] == .number(2))
            #expect(page.json["total"] == .number(4))
            #expect(page.json["length"] == .number(index < 2 ? 2 : 0))
        }
        let emails = pages.flatMap { $0.json["users"]?.arrayValue ?? [] }.compactMap {
            $0.objectValue?["email"]?.stringValue
        }
        #expect(emails == ["ada@example.com", "adam@example.com", "bob@example.com", "carol@sample.org"])
    }

    @Test func sortAndFieldsShapeTheAnswer() async throws {
        let (descending, byName, only, without) = try await withUsers { http, token, _ in
            (
                try await http.send(.get, Self.path([("sort", "email:-1")]), bearer: token),
                try await http.send(.get, Self.path([("sort", "name:1")]), bearer: token),
                try await http.send(
                    .get, Self.path([("fields", "email,user_id"), ("include_fields", "true")]), bearer: token),
                try await http.send(
                    .get, Self.path([("fields", "email,identities"), ("include_fields", "false")]), bearer: token)
            )
        }
        let all = ["ada@example.com", "adam@example.com", "bob@example.com", "carol@sample.org"]
        #expect(try Self.emails(descending) == all.reversed())
        #expect(try Self.emails(byName) == all)
        let shaped = try only.decode([JSONValue].self)
        #expect(shaped.count == 4)
        #expect(shaped.allSatisfy { $0.objectValue.map { Set($0.keys) } == ["email", "user_id"] })
        let rest = try without.decode([JSONValue].self)
        #expect(rest.allSatisfy { $0.objectValue?["email"] == nil && $0.objectValue?["identities"] == nil })
        #expect(rest.allSatisfy { $0.objectValue?["user_id"] != nil && $0.objectValue?["name"] != nil })
    }

    @Test(arguments: [
        [("q", #"email:"ada@example.com"#)], [("q", "foo:bar")], [("q", "email:*ada")], [("q", "email:a*a")],
        [("q", "(email:ada*")], [("q", "email:ada*)")], [("q", "AND")], [("q", "email:ada* OR")], [("q", "ada")],
        [("q", "email_verified:maybe")], [("q", "created_at:[2020 TO 2030]")], [("q", "email:")],
        [("q", String(repeating: "(", count: 40) + "email:a*" + String(repeating: ")", count: 40))],
        [("q", String(repeating: "x", count: 3000))], [("search_engine", "v2")], [("per_page", "101")],
        [("per_page", "0")], [("page", "-1")], [("page", "11"), ("per_page", "100")], [("sort", "email")],
        [("sort", "nickname:1")], [("sort", "email:2")], [("include_totals", "yes")], [("include_fields", "1")],
    ])
    func whatItCannotRunIsAnInvalidQueryString(parameters: [(String, String)]) async throws {
        let result = try await withUsers { http, token, _ in
            try await http.send(.get, Self.path(parameters), bearer: token)
        }
        expectManagementError(result, .badRequest, "invalid_query_string")
    }

    @Test func theLastPageWithinAThousandIsAllowed() async throws {
        let result = try await withUsers { http, token, _ in
            try await http.send(.get, Self.path([("page", "10"), ("per_page", "100")]), bearer: token)
        }
        #expect(result.status == .ok, "\(result.text)")
        #expect(result.text == "[]")
    }

    @Test func anotherConnectionHasNoUsers() async throws {
        let result = try await withUsers { http, token, _ in
            try await http.send(.get, Self.path([("connection", "other")]), bearer: token)
        }
        #expect(result.status == .ok && result.text == "[]", "\(result.text)")
    }
}
