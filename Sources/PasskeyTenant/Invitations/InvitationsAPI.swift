import FoundationEssentials
import HTTPTypes
import Hummingbird
import WebAuthn

/// The Management API's organization invitations under `/api/v2` (Auth0's
/// `/api/v2/organizations/{id}/invitations`), for the machine-to-machine client's tokens
/// (``ManagementAPI/managementClaims(_:scope:)``); errors in the Management API's shape.
///
/// | route | scope | success |
/// |---|---|---|
/// | `POST organizations/{id}/invitations` | `create:organization_invitations` | 201, the invitation |
/// | `GET organizations/{id}/invitations?page=&per_page=&include_totals=` | `read:organization_invitations` | 200, an array, or `{start, limit, invitations}` with `include_totals=true` |
/// | `GET organizations/{id}/invitations/{invitation id}` | `read:organization_invitations` | 200, the invitation |
/// | `DELETE organizations/{id}/invitations/{invitation id}` | `delete:organization_invitations` | 204 |
struct InvitationsAPI: TenantRoutes {
    let services: TenantServices

    /// The three scopes, which ``PasskeyTenant/managementScopes`` grants by default.
    static let scopes = [
        "create:organization_invitations", "read:organization_invitations", "delete:organization_invitations",
    ]

    func addRoutes(to router: Router<TenantRequestContext>, secure: Bool) {
        let group = router.group("api/v2/organizations")
        let management = ManagementAPI(services: services)
        group.post(":id/invitations") { request, context in
            try await management.managementClaims(TenantServices.bearer(request), scope: Self.scopes[0])
            let body = try await request.decode(as: NewOrganizationInvitation.self, context: context)
            let invitation = try await services.createInvitation(
                body, organizationID: ManagementAPI.pathID(context, "id"))
            return TenantResponseEncoder.json(invitation, status: .created)
        }
        group.get(":id/invitations") { request, context in
            try await management.managementClaims(TenantServices.bearer(request), scope: Self.scopes[1])
            let query = request.uri.queryParameters
            let page = try ManagementAPI.integer(query.get("page"), "page", default: 0)
            let perPage = try ManagementAPI.integer(query.get("per_page"), "per_page", default: 50)
            let all = try await services.invitations(of: ManagementAPI.pathID(context, "id"))
            let slice = all.dropFirst(page * perPage).prefix(perPage)
            guard try ManagementAPI.flag(query.get("include_totals"), "include_totals") else {
                return TenantResponseEncoder.json(Array(slice))
            }
            return TenantResponseEncoder.json(
                InvitationPage(start: page * perPage, limit: perPage, invitations: Array(slice)))
        }
        group.get(":id/invitations/:invitation") { request, context in
            try await management.managementClaims(TenantServices.bearer(request), scope: Self.scopes[1])
            let id = try ManagementAPI.pathID(context, "invitation")
            guard
                let found = try await services.invitations(of: ManagementAPI.pathID(context, "id")).first(where: {
                    $0.id == id
                })
            else {
                throw TenantError(.notFound, status: 404, "The invitation does not exist.")
            }
            return TenantResponseEncoder.json(found)
        }
        group.delete(":id/invitations/:invitation") { request, context in
            try await management.managementClaims(TenantServices.bearer(request), scope: Self.scopes[2])
            try await services.deleteInvitation(
                try ManagementAPI.pathID(context, "invitation"), of: ManagementAPI.pathID(context, "id"))
            return TenantResponseEncoder.empty(status: .noContent)
        }
    }
}

/// A page of invitations with `include_totals=true`: Auth0 gives `start` and `limit`, no total.
struct InvitationPage: Encodable {
    let start: Int
    let limit: Int
    let invitations: [OrganizationInvitation]
}
