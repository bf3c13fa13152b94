public import ArgumentParser
public import PasskeyTenant

/// `--organization-usage deny|allow|require`: the application's `organization_usage`
/// (auth0-passkey-api.md §17).
extension OrganizationUsage: ExpressibleByArgument {}
