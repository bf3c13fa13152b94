import FoundationEssentials

/// The issuer a tenant names in its discovery document (OpenID Connect Discovery 1.0 §3,
/// `issuer`), fetched on first use and kept: what `iss` must equal for a tenant reached at a base
/// URL that is not its issuer, such as a local tenant on a loopback port whose issuer is
/// `https://localhost/`.
///
/// Discovery §4.3 asks the issuer to be the URL the document was fetched under; a local tenant's
/// is not, by design, so only the form is checked here: an absolute `https` or loopback `http` URL.
/// The JWKS comes from the same base URL, so a token of another tenant still fails its signature.
actor DiscoveredIssuer {
    /// The discovery document.
    let endpoint: APIEndpoint
    private var issuer: String?

    init(endpoint: APIEndpoint) {
        self.endpoint = endpoint
    }

    /// The document's `issuer`: the kept one, else fetched now.
    func value() async throws(IDTokenValidationError) -> String {
        if let issuer { return issuer }
        let body: [UInt8]
        do {
            body = try await endpoint.document()
        } catch {
            throw IDTokenValidationError(.discoveryUnavailable, fetching: "discovery document", error)
        }
        struct Document: Decodable { let issuer: String }
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(body)),
            case .success = BaseURL.validated(document.issuer)
        else {
            throw IDTokenValidationError(.discoveryUnavailable, "The tenant's discovery document names no issuer URL.")
        }
        issuer = document.issuer
        return document.issuer
    }
}
