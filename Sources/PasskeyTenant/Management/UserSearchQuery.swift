/// The `q` of `GET /api/v2/users` with `search_engine=v3`: the subset of Lucene's query syntax that
/// Auth0's user search documents for users (auth0-passkey-api.md §15.2 **[local]**).
///
/// ```
/// query   = or
/// or      = and *( "OR" and )
/// and     = unary *( [ "AND" ] unary )          ; a space is AND
/// unary   = "NOT" unary / "(" or ")" / term
/// term    = field ":" ( quoted / word [ "*" ] )  ; `*` only at a word's end: a prefix
/// field   = "user_id" / "email" / "email_verified" / "name" / "nickname" / "username"
///         / "phone_number" / "given_name" / "family_name"
/// quoted  = DQUOTE *( %x20-21 / %x23-5B / %x5D-7E / "\" CHAR ) DQUOTE
/// ```
///
/// A term matches a user whose field equals the value (or starts with it, with `*`), without
/// regard to case except for `user_id`; `email_verified` takes `true` or `false`. Anything else
/// (another field, a leading or inner wildcard, a range, an unbalanced quote or parenthesis) is
/// refused: `invalid_query_string` (400), never an empty result the caller cannot tell from "no
/// such user". The query is evaluated here over the users the store reads, narrowed only by its
/// exact `user_id` and `email` terms (``storeFilter``), so no part of it is ever spliced into SQL.
struct UserSearchQuery: Sendable, Hashable {
    /// A field a term can search.
    enum Field: String, Sendable, Hashable, CaseIterable {
        case userID = "user_id"
        case email
        case emailVerified = "email_verified"
        case name, nickname, username
        case phoneNumber = "phone_number"
        case givenName = "given_name"
        case familyName = "family_name"
    }

    /// A parsed query.
    indirect enum Node: Sendable, Hashable {
        case term(Field, value: String, isPrefix: Bool)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    /// The longest `q` taken, in characters, and the deepest nesting of parentheses and `NOT`.
    static let maxLength = 2048
    static let maxDepth = 32

    /// The query; nil for an empty `q`, which every user matches.
    let root: Node?

    /// Parses `text`.
    ///
    /// - Throws: `invalid_query_string` (400) saying what is wrong.
    init(_ text: String) throws(TenantError) {
        guard text.count <= Self.maxLength else { throw Self.invalid("q is longer than \(Self.maxLength) characters") }
        var parser = Parser(tokens: try Self.tokens(text))
        guard !parser.tokens.isEmpty else {
            root = nil
            return
        }
        root = try parser.or(depth: 0)
        if let extra = parser.next() { throw Self.invalid("unexpected \(extra)") }
    }

    /// Whether `user` matches; every user does for an empty query.
    func matches(_ user: ManagedUser) -> Bool {
        root.map { Self.evaluate($0, user) } ?? true
    }

    /// What the store can narrow to exactly: the exact (not prefix) `user_id` and `email` terms
    /// every match must satisfy, those ANDed at the root; every user for anything else.
    ///
    /// The narrowing keeps a superset of the matches, which ``matches(_:)`` then filters: an email
    /// term narrows only with an ASCII value, so SQL's case folding (ASCII in SQLite's `NOCASE`)
    /// agrees with this type's `lowercased()`.
    var storeFilter: UserFilter {
        var filter = UserFilter.all
        var pending = root.map { [$0] } ?? []
        while let node = pending.popLast() {
            switch node {
            case .and(let left, let right): pending += [right, left]
            case .term(.userID, let value, false) where filter.userID == nil: filter.userID = value
            case .term(.email, let value, false) where filter.email == nil && value.allSatisfy(\.isASCII):
                filter.email = value.lowercased()
            default: continue
            }
        }
        return filter
    }

    private static func evaluate(_ node: Node, _ user: ManagedUser) -> Bool {
        switch node {
        case .and(let left, let right): return evaluate(left, user) && evaluate(right, user)
        case .or(let left, let right): return evaluate(left, user) || evaluate(right, user)
        case .not(let inner): return !evaluate(inner, user)
        case .term(.emailVerified, let value, _): return user.emailVerified == (value == "true")
        case .term(.userID, let value, let isPrefix):
            return isPrefix ? user.userID.hasPrefix(value) : user.userID == value
        case .term(let field, let value, let isPrefix):
            guard let text = text(of: field, user)?.lowercased() else { return false }
            return isPrefix ? text.hasPrefix(value.lowercased()) : text == value.lowercased()
        }
    }

    private static func text(of field: Field, _ user: ManagedUser) -> String? {
        switch field {
        case .userID: user.userID
        case .email: user.email
        case .emailVerified: user.emailVerified.map(String.init)
        case .name: user.name
        case .nickname: user.nickname
        case .username: user.username
        case .phoneNumber: user.phoneNumber
        case .givenName: user.givenName
        case .familyName: user.familyName
        }
    }

    static func invalid(_ reason: String) -> TenantError {
        TenantError(.invalidQueryString, "Query validation error: \(reason).")
    }

    // MARK: Tokens

    enum Token: Sendable, Hashable, CustomStringConvertible {
        case open, close, and, or, not
        case term(Field, value: String, isPrefix: Bool)

        var description: String {
            switch self {
            case .open: "'('"
            case .close: "')'"
            case .and: "AND"
            case .or: "OR"
            case .not: "NOT"
            case .term(let field, _, _): "a term on \(field.rawValue)"
            }
        }
    }

    private static func tokens(_ text: String) throws(TenantError) -> [Token] {
        var tokens: [Token] = []
        var rest = text[...]
        while let first = rest.first {
            if first.isWhitespace {
                rest.removeFirst()
            } else if first == "(" || first == ")" {
                tokens.append(first == "(" ? .open : .close)
                rest.removeFirst()
            } else {
                let word = rest.prefix { !$0.isWhitespace && $0 != ":" && $0 != "(" && $0 != ")" }
                rest = rest.dropFirst(word.count)
                switch (word, rest.first) {
                case ("AND", _), ("&&", _): tokens.append(.and)
                case ("OR", _), ("||", _): tokens.append(.or)
                case ("NOT", _): tokens.append(.not)
                case (_, ":"?):
                    guard let field = Field(rawValue: String(word)) else {
                        throw invalid("\(word.prefix(64)) is not a field this tenant searches")
                    }
                    rest.removeFirst()
                    tokens.append(try term(field, &rest))
                default: throw invalid("\(word.prefix(64)) is not field:value")
                }
            }
        }
        return tokens
    }

    /// The value after `field:`, quoted or not.
    private static func term(_ field: Field, _ rest: inout Substring) throws(TenantError) -> Token {
        var value = ""
        var isPrefix = false
        if rest.first == "\"" {
            rest.removeFirst()
            var closed = false
            while let character = rest.popFirst() {
                if character == "\\", let escaped = rest.popFirst() {
                    value.append(escaped)
                } else if character == "\"" {
                    closed = true
                    break
                } else {
                    value.append(character)
                }
            }
            guard closed else { throw invalid("an unterminated quote") }
            if let next = rest.first, !next.isWhitespace, next != ")" {
                throw invalid("\(field.rawValue):\"…\" is followed by \(next)")
            }
        } else {
            let word = rest.prefix { !$0.isWhitespace && $0 != "(" && $0 != ")" }
            rest = rest.dropFirst(word.count)
            value = String(word)
            if value.hasSuffix("*") {
                value.removeLast()
                isPrefix = true
            }
            if value.contains(where: { "*?\"[]{}~^:\\".contains($0) }) {
                throw invalid("\(field.rawValue): only a trailing * is supported, on a plain word")
            }
        }
        guard !value.isEmpty else { throw invalid("\(field.rawValue) has no value") }
        if field == .emailVerified, isPrefix || !["true", "false"].contains(value) {
            throw invalid("email_verified is true or false")
        }
        return .term(field, value: value, isPrefix: isPrefix)
    }

    // MARK: Grammar

    private struct Parser {
        let tokens: [Token]
        var index = 0

        mutating func next() -> Token? {
            guard index < tokens.count else { return nil }
            defer { index += 1 }
            return tokens[index]
        }

        func peek() -> Token? { index < tokens.count ? tokens[index] : nil }

        mutating func or(depth: Int) throws(TenantError) -> Node {
            var node = try and(depth: depth)
            while peek() == .or {
                index += 1
                node = .or(node, try and(depth: depth))
            }
            return node
        }

        mutating func and(depth: Int) throws(TenantError) -> Node {
            var node = try unary(depth: depth)
            while let token = peek(), token != .or, token != .close {
                if token == .and { index += 1 }
                node = .and(node, try unary(depth: depth))
            }
            return node
        }

        mutating func unary(depth: Int) throws(TenantError) -> Node {
            guard depth < UserSearchQuery.maxDepth else { throw UserSearchQuery.invalid("the query nests too deep") }
            switch next() {
            case .not?: return .not(try unary(depth: depth + 1))
            case .open?:
                let node = try or(depth: depth + 1)
                guard next() == .close else { throw UserSearchQuery.invalid("an unclosed (") }
                return node
            case .term(let field, let value, let isPrefix)?: return .term(field, value: value, isPrefix: isPrefix)
            case let token?: throw UserSearchQuery.invalid("unexpected \(token)")
            case nil: throw UserSearchQuery.invalid("the query ends too soon")
            }
        }
    }
}
