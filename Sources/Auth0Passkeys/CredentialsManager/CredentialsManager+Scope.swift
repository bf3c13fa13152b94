/// The scope rules: when stored credentials must be renewed for another scope, and the storage
/// key of API credentials for an audience and scope (Auth0.swift 2.16+).
extension CredentialsManager {
    /// Whether a renewal must change the scope: both known and different as sets.
    static func scopeChanged(_ stored: String?, _ requested: String?) -> Bool {
        guard let stored, let requested else { return false }
        return Scope.values(stored) != Scope.values(requested)
    }

    /// As ``scopeChanged(_:_:)``, with a stored `openid` ignored when `requested` lacks it (the
    /// exchange adds `openid` on the wire).
    static func apiScopeChanged(_ stored: String, _ requested: String?) -> Bool {
        guard let requested else { return false }
        let wanted = Scope.values(requested)
        var have = Scope.values(stored)
        if !wanted.contains("openid") { have.remove("openid") }
        return have != wanted
    }

    /// `<audience>`, or `<audience>::<scopes sorted, joined by ::>` (Auth0.swift 2.16+).
    static func apiKey(_ audience: String, _ scope: String?) -> String {
        guard let scope, !Scope.values(scope).isEmpty else { return audience }
        return ([audience] + Scope.values(scope).sorted()).joined(separator: "::")
    }
}
