import WebAuthn

/// The related origins validation procedure (WebAuthn L3 §5.11.1): whether a relying party's
/// `/.well-known/webauthn` document lets `callerOrigin` use its RP ID.
///
/// ```
/// GET https://{rpId}/.well-known/webauthn      200, Content-Type: application/json
/// { "origins": [ "https://example.co.uk", "https://example.de", "https://shop.example.net" ] }
/// ```
///
/// The origins are read in order. Each counts under its registrable origin label, the first
/// label of its registrable domain (`example` for `example.co.uk`, from the Public Suffix List);
/// only the first ``maxLabels`` distinct labels are looked at, so a document cannot make one RP ID
/// usable from any number of unrelated sites. An origin with no label (an IP address, a public
/// suffix such as `localhost`) is skipped.
enum RelatedOrigins {
    /// How many distinct registrable origin labels a client reads (§5.11.1 step 1: "at least
    /// five"; five is what browsers use).
    static let maxLabels = 5

    /// Fetches the document for `rpID` and checks that it lists `callerOrigin` within the label
    /// limit.
    ///
    /// - Throws: `SecurityError` when the fetch fails, the answer is not 200 (a redirect
    ///   included), not `application/json`, not a JSON object with an `origins` array of strings,
    ///   or does not list the origin within the limit.
    static func validate(_ callerOrigin: WebOrigin, rpID: String, fetcher: RelatedOriginsFetcher)
        async throws(WebAuthnClientError)
    {
        let url = "https://\(rpID)/.well-known/webauthn"
        let origins = try await document(url, fetcher: fetcher)
        var labelsSeen: Set<String> = []
        var pastTheLimit = false
        for item in origins {
            guard let origin = parse(item), let label = registrableOriginLabel(origin) else {
                continue
            }
            if labelsSeen.count >= maxLabels && !labelsSeen.contains(label) {
                pastTheLimit = pastTheLimit || isSameOrigin(origin, callerOrigin)
                continue
            }
            if isSameOrigin(origin, callerOrigin) {
                return
            }
            if labelsSeen.count < maxLabels {
                labelsSeen.insert(label)
            }
        }
        if pastTheLimit {
            throw WebAuthnClientError(
                .security,
                "\(url) lists \(callerOrigin) only after \(maxLabels) other registrable domain labels, past the limit")
        }
        throw WebAuthnClientError(.security, "\(url) does not list \(callerOrigin) among its origins")
    }

    /// The `origins` of the document at `url` (§5.11.1 step 2).
    private static func document(_ url: String, fetcher: RelatedOriginsFetcher) async throws(WebAuthnClientError)
        -> [String]
    {
        let response: RelatedOriginsFetcher.Response
        do {
            response = try await fetcher.fetch(url)
        } catch {
            throw WebAuthnClientError(.security, "\(url) could not be fetched: \(error)")
        }
        guard response.status == 200 else {
            let redirect = (300..<400).contains(response.status) ? ", a redirect, which is not followed" : ""
            throw WebAuthnClientError(.security, "\(url) answered \(response.status)\(redirect), not 200")
        }
        // The media type's essence: parameters (`; charset=utf-8`) and spaces dropped, case ignored.
        let mediaType = response.contentType.map { String($0.prefix { $0 != ";" }.filter { !$0.isWhitespace }) }
        guard mediaType?.lowercased() == "application/json" else {
            throw WebAuthnClientError(
                .security, "\(url) is \(response.contentType ?? "of no content type"), not application/json")
        }
        guard case .object(let members) = try? WebAuthnJSON.decode(JSONValue.self, from: response.body) else {
            throw WebAuthnClientError(.security, "\(url) is not a JSON object")
        }
        guard case .array(let items)? = members["origins"] else {
            throw WebAuthnClientError(.security, "\(url) has no \"origins\" array")
        }
        let origins = items.compactMap(\.stringValue)
        guard origins.count == items.count else {
            throw WebAuthnClientError(.security, "\(url) has an \"origins\" member that is not a string")
        }
        return origins
    }

    /// An origin of the list: `scheme://host[:port]`, with or without a trailing `/` (what the
    /// URL parser and then the origin of the URL make of it); `nil` for anything else.
    private static func parse(_ item: String) -> WebOrigin? {
        try? WebOrigin(item.hasSuffix("/") ? String(item.dropLast()) : item)
    }

    /// The first label of the origin's registrable domain, or `nil` for an IP address or a host
    /// that has none (§5.11 "registrable origin label").
    private static func registrableOriginLabel(_ origin: WebOrigin) -> String? {
        guard !origin.hostIsIPAddress, let registrable = PublicSuffixList.registrableDomain(origin.host),
            let label = registrable.split(separator: ".").first
        else {
            return nil
        }
        return String(label)
    }

    /// HTML's "same origin" for tuple origins: scheme, host and port, a scheme's default port
    /// counting as no port.
    private static func isSameOrigin(_ lhs: WebOrigin, _ rhs: WebOrigin) -> Bool {
        func port(_ origin: WebOrigin) -> Int? {
            origin.port == ["https": 443, "http": 80][origin.scheme] ? nil : origin.port
        }
        return lhs.scheme == rhs.scheme && lhs.host == rhs.host && port(lhs) == port(rhs)
    }
}
