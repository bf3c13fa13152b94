/// What a passwordless start sends (Auth0.swift's `PasswordlessType`; the `send` of `POST
/// /passwordless/start`).
public enum PasswordlessType: String, Sendable, Hashable, CaseIterable {
    /// A one-time code, by email or SMS, that ``Authentication/login(email:code:audience:scope:)``
    /// or ``Authentication/login(phoneNumber:code:audience:scope:)`` redeems.
    case code
    /// A magic link, by email: opened in a browser, it ends at the application's redirect URI.
    case webLink = "link"
    /// A link for an iOS Universal Link (Auth0 only: the local tenant refuses it with `bad.request`).
    case iOSLink = "link_ios"
    /// A link for an Android App Link (Auth0 only: the local tenant refuses it with `bad.request`).
    case androidLink = "link_android"
}
