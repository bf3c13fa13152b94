import WebAuthn

/// The query string of `GET /api/v2/users` (auth0-passkey-api.md §15.2 **[local]**), checked with
/// Auth0's limits.
///
/// ```
/// q=<UserSearchQuery> & search_engine=v3 & page=0.. & per_page=1..100 (page × per_page ≤ 1000)
/// & include_totals=true|false & sort=<created_at|updated_at|email|name|user_id>:<1|-1>
/// & fields=a,b & include_fields=true|false & connection=<name>
/// ```
///
/// `per_page` is 50 and `page` 0 when absent; without `sort` users come oldest first. `fields`
/// keeps (or, with `include_fields=false`, drops) those members of each user.
struct UserListRequest: Sendable, Hashable {
    /// A member users can be sorted by.
    enum SortField: String, Sendable, Hashable {
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case email, name
        case userID = "user_id"
    }

    /// `sort=field:1` (ascending) or `field:-1` (descending).
    struct Sort: Sendable, Hashable {
        var field: SortField
        var ascending: Bool
    }

    /// The most users a search pages through, as Auth0 allows: `page × per_page` stays within it.
    static let maxResults = 1000

    var query: UserSearchQuery
    var page: Int
    var perPage: Int
    var includeTotals: Bool
    var sort: Sort?
    /// `fields`, when given.
    var fields: Set<String>?
    var includeFields: Bool
    var connection: String?

    /// Reads and checks the parameters.
    ///
    /// - Throws: `invalid_query_string` (400) for a `q` that does not parse, another search engine
    ///   than `v3`, a page or size out of range, or a malformed `sort`.
    init(_ parameters: FormParameters) throws(TenantError) {
        if let engine = parameters["search_engine"], engine != "v3" {
            throw UserSearchQuery.invalid("search_engine must be v3")
        }
        query = try UserSearchQuery(parameters["q"] ?? "")
        page = try ManagementAPI.integer(parameters["page"], "page", default: 0)
        perPage = try ManagementAPI.integer(parameters["per_page"], "per_page", default: 50)
        guard (1...100).contains(perPage) else { throw UserSearchQuery.invalid("per_page must be 1 to 100") }
        let (product, overflow) = page.multipliedReportingOverflow(by: perPage)
        guard !overflow, product <= Self.maxResults else {
            throw UserSearchQuery.invalid("only the first \(Self.maxResults) users can be paged through")
        }
        includeTotals = try ManagementAPI.flag(parameters["include_totals"], "include_totals")
        includeFields =
            try parameters["include_fields"].map { text throws(TenantError) in
                try ManagementAPI.flag(text, "include_fields")
            } ?? true
        fields = parameters["fields"].map { Set($0.split(separator: ",").map(String.init)) }
        connection = parameters["connection"]
        sort = try parameters["sort"].map(Self.sort)
    }

    private static func sort(_ text: String) throws(TenantError) -> Sort {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let field = SortField(rawValue: String(parts[0])), parts[1] == "1" || parts[1] == "-1"
        else {
            throw UserSearchQuery.invalid("sort must be created_at, updated_at, email, name or user_id, then :1 or :-1")
        }
        return Sort(field: field, ascending: parts[1] == "1")
    }

    /// Orders `users` by ``sort`` (users without the member last, then by `user_id`); as given
    /// without one.
    func sorted(_ users: [ManagedUser]) -> [ManagedUser] {
        guard let sort else { return users }
        return users.sorted { left, right in
            switch (Self.key(sort.field, left), Self.key(sort.field, right)) {
            case (let a?, let b?) where a != b: sort.ascending ? a < b : a > b
            case (_?, nil): true
            case (nil, _?): false
            default: left.userID < right.userID
            }
        }
    }

    /// The member to sort by; the ISO 8601 times sort as text.
    private static func key(_ field: SortField, _ user: ManagedUser) -> String? {
        switch field {
        case .createdAt: user.createdAt
        case .updatedAt: user.updatedAt
        case .email: user.email?.lowercased()
        case .name: user.name.lowercased()
        case .userID: user.userID
        }
    }

    /// One user's JSON object with only the members ``fields`` asks for.
    func shaped(_ user: ManagedUser) throws(TenantError) -> JSONValue {
        let value: JSONValue
        do {
            value = try WebAuthnJSON.decode(JSONValue.self, from: WebAuthnJSON.encode(user))
        } catch {
            throw TenantError(.serverError, status: 500, "a user did not encode")
        }
        guard let fields, case .object(let members) = value else { return value }
        return .object(members.filter { fields.contains($0.key) == includeFields })
    }
}
