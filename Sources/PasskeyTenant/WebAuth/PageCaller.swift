/// Who calls the login page's API: the cookies and headers its CSRF checks read.
struct PageCaller: Sendable {
    /// The `passkey_tx` cookie.
    var transactionCookie: String?
    /// The `Origin` header, if the browser sent one.
    var origin: String?
    /// The page's origin, from the `Host` header.
    var page: PageOrigin?
    /// The `User-Agent`, kept with a new passkey.
    var userAgent: String?
    /// Whether the tenant serves TLS.
    var secure: Bool
}
