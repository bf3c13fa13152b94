import Foundation
import TestSupport
import Testing
import WebAuthn

@testable import PasskeyTenant

/// `GET /api/v2/users` reads only what it answers: the store pages and counts in SQL (LIMIT,
/// OFFSET, COUNT) and narrows by a query's exact `user_id` and `email` terms; the rest of the
/// query is matched in Swift. On SQLite, or PostgreSQL with `PASSKEY_TEST_POSTGRES`.
@Suite struct UserStorePagingTests {
    @Test func theStorePagesCountsAndNarrows() async throws {
        let tenant = try await TestTenant.open()
        let store = tenant.services.store
        var ids: [String] = []
        for (index, email) in ["ada@example.com", "Bob@example.com", "carol@example.com"].enumerated() {
            let user = TenantUser(
                id: "auth0|user\(index)", userHandle: Array(repeating: UInt8(index), count: 32),
                profile: UserProfile(email: email, name: "user \(index)"), metadata: [:],
                createdAt: Date(timeIntervalSince1970: 1_000_000 + Double(index)))
            try await store.insertUser(user)
            ids.append(user.id)
        }
        let page = try await store.users(.all, offset: 1, limit: 1, counting: true)
        #expect(page.users.map(\.id) == [ids[1]])
        #expect(page.total == 3)
        let uncounted = try await store.users(.all, offset: 2, limit: 5, counting: false)
        #expect(uncounted.users.map(\.id) == [ids[2]] && uncounted.total == nil)
        let all = try await store.users(.all, offset: 0, limit: nil, counting: false)
        #expect(all.users.map(\.id) == ids)
        let bob = try await store.users(UserFilter(email: "bob@example.com"), offset: 0, limit: nil, counting: true)
        #expect(bob.users.map(\.id) == [ids[1]] && bob.total == 1)
        let byID = try await store.users(UserFilter(userID: ids[2]), offset: 0, limit: nil, counting: false)
        #expect(byID.users.map(\.id) == [ids[2]])
        let neither = try await store.users(
            UserFilter(userID: ids[2], email: "ada@example.com"), offset: 0, limit: nil, counting: true)
        #expect(neither.users.isEmpty && neither.total == 0)
        await tenant.close()
    }

    @Test(arguments: [
        ("", UserFilter.all),
        (#"email:"ADA@Example.com""#, UserFilter(email: "ada@example.com")),
        (#"user_id:"abc" AND name:x*"#, UserFilter(userID: "abc")),
        (#"name:x email:"a@b.c" user_id:"u""#, UserFilter(userID: "u", email: "a@b.c")),
        ("email:ada*", UserFilter.all),
        (#"email:"a@b.c" OR user_id:"u""#, UserFilter.all),
        (#"NOT email:"a@b.c""#, UserFilter.all),
        (#"email:"é@b.c""#, UserFilter.all),
    ])
    func aQueryNarrowsTheStoreOnlyByItsExactTerms(query: String, filter: UserFilter) throws {
        #expect(try UserSearchQuery(query).storeFilter == filter)
    }
}
