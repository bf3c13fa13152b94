import FoundationEssentials
import JWTKit

/// The tenant's JSON Web Key Set (RFC 7517 §5), fetched on first use and kept; fetched again once
/// when a token names a key it lacks, since the tenant may have rotated its keys (spec §6.5).
actor JSONWebKeySetCache {
    /// Verifies a token's signature with jwt-kit; its claims are checked by ``IDTokenValidator``.
    struct SignedIDToken: JWTPayload {
        let claims: IDTokenClaims

        init(from decoder: any Decoder) throws {
            claims = try IDTokenClaims(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try claims.encode(to: encoder)
        }

        func verify(using algorithm: some JWTAlgorithm) {}
    }

    /// The JWKS.
    let endpoint: APIEndpoint
    private var keys: JWTKeyCollection?
    private var identifiers: Set<String> = []

    init(endpoint: APIEndpoint) {
        self.endpoint = endpoint
    }

    /// The key set holding `kid`: the cached one, else one fetched again.
    func keys(containing kid: String) async throws(IDTokenValidationError) -> JWTKeyCollection {
        if let keys, identifiers.contains(kid) { return keys }
        try await refresh()
        guard let keys, identifiers.contains(kid) else {
            throw IDTokenValidationError(.unknownKey, "The tenant's JWKS has no key with the token's kid.")
        }
        return keys
    }

    /// `GET` the JWKS and replace the cached keys with its RSA keys.
    private func refresh() async throws(IDTokenValidationError) {
        let body: [UInt8]
        do {
            body = try await endpoint.document()
        } catch {
            throw IDTokenValidationError(.jwksUnavailable, fetching: "JWKS", error)
        }
        do {
            let set = try JSONDecoder().decode(JWTKit.JWKS.self, from: Data(body))
            let rsa = set.keys.filter { $0.keyType == .rsa && $0.keyIdentifier != nil }
            let collection = try await JWTKeyCollection().add(jwks: JWTKit.JWKS(keys: rsa))
            keys = collection
            identifiers = Set(rsa.compactMap { $0.keyIdentifier?.string })
        } catch {
            throw IDTokenValidationError(.jwksUnavailable, "The tenant's JWKS is not a key set.", cause: error)
        }
    }
}
