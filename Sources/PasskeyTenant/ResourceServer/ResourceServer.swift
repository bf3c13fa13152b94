import FoundationEssentials
import Hummingbird

/// The sample protected API (auth0-passkey-api.md §6.3): `GET /api/events`, for an access token of
/// the configured API audience with `read:events`, Bearer or DPoP-bound (RFC 9449 §7).
struct ResourceServer: TenantRoutes {
    let services: TenantServices

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        router.get("api/events") { request, _ in
            try await self.events(accessToken: self.services.accessToken(request, secure: secure))
        }
    }
}

extension ResourceServer {
    /// `GET /api/events`, the sample protected API: needs an access token for the configured API
    /// audience with scope `read:events`.
    func events(accessToken: Secret?) async throws(TenantError) -> EventList {
        let audience = configuration.apiAudience
        let claims = try await services.authorize(
            accessToken, audiences: { $0 == audience }, scope: TenantServices.eventsScope)
        return EventList(
            subject: claims.sub,
            events: [
                .init(id: "evt_1", name: "Passkey workshop"),
                .init(id: "evt_2", name: "WebAuthn Level 3 reading group"),
            ])
    }
}

/// `GET /api/events`'s answer.
public struct EventList: Sendable, Hashable, Codable {
    /// One event.
    public struct Event: Sendable, Hashable, Codable {
        public var id: String
        public var name: String
    }

    /// The `sub` of the token the API was called with.
    public var subject: String
    public var events: [Event]

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case events
    }
}
