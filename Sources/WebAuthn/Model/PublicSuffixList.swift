/// The Public Suffix List (https://publicsuffix.org), as libpsl and the system's copy of the
/// list know it: which names are public suffixes (`com`, `co.uk`, `github.io`), under which
/// anyone may register a name of their own.
///
/// A WebAuthn client uses it so that no origin can claim an RP ID shared by unrelated sites
/// (WebAuthn L3 §5.1.3 step 8 and §5.1.4.1 step 7, through HTML's "is a registrable domain
/// suffix of or is equal to"); see ``WebOrigin/mayUse(rpID:)``.
///
/// Hosts are compared as given: pass them lower-case, in ASCII (A-labels) or UTF-8, without a
/// trailing dot. The list applies the implicit `*` rule, so an unlisted top-level name such as
/// `localhost` is a public suffix of its own.
public enum PublicSuffixList {
    /// Whether a host is a public suffix.
    ///
    /// - Parameter host: a domain name.
    /// - Returns: `true` for `com`, `co.uk`, `github.io`, `localhost`; `false` for
    ///   `example.com`. When no list could be loaded, every host is a public suffix, so the RP ID
    ///   rule falls back to exact equality rather than letting a suffix through.
    public static func isPublicSuffix(_ host: String) -> Bool {
        isListedPublicSuffix(host)
    }

    /// The registrable domain of a host: its public suffix and one label more.
    ///
    /// - Parameter host: a domain name.
    /// - Returns: `example.com` for `login.example.com` and for `example.com`; `nil` for a public
    ///   suffix, or when no list could be loaded.
    public static func registrableDomain(_ host: String) -> String? {
        listedRegistrableDomain(host)
    }
}
