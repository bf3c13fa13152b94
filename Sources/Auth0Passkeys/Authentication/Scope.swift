/// The scope rules Auth0's SDK applies (spec §3.3, §9).
enum Scope {
    /// `scope`, with `openid ` put in front when no space-separated element is `openid`.
    static func includingOpenID(_ scope: String) -> String {
        scope.split(separator: " ").contains("openid") ? scope : "openid " + scope
    }

    /// The set of scope values: split on spaces, empties dropped, lower-cased.
    static func values(_ scope: String) -> Set<String> {
        Set(scope.split(separator: " ").map { $0.lowercased() })
    }
}
