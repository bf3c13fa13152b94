import PasskeyTenant
import Testing

/// The tenant configuration file (auth0-passkey-api.md §17, §18): Auth0's key names in, the
/// configuration out; a malformed file names the key.
@Suite struct ConfigurationFileTests {
    static let file = """
        {"organizations": [
           {"name": "acme", "display_name": "Acme", "members": ["ada@example.com", "auth0|0123"],
            "assign_membership_on_login": true},
           {"name": "globex", "id": "org_Globex0000000001", "is_signup_enabled": true}],
         "organization_usage": "require", "organization_require_behavior": "pre_login_prompt",
         "precedence": ["username", "email", "phone_number"],
         "attributes": {
           "email": {"identifier": {"active": true}, "unique": true, "profile_required": true,
                     "verification_method": "link", "signup": {"status": "optional", "verification": {"active": false}}},
           "username": {"identifier": {"active": true}, "signup": {"status": "required"},
                        "validation": {"min_length": 3, "max_length": 20, "allowed_types": {"email": false}}},
           "phone_number": {"identifier": {"active": false}, "signup": {"status": "inactive"}}}}
        """

    @Test func aFileInAuth0sKeyNamesConfiguresTheTenant() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(configurationFile: Array(Self.file.utf8))
        #expect(configuration.organizationUsage == .require)
        #expect(configuration.organizationRequireBehavior == .preLoginPrompt)
        let acme = try #require(configuration.organizations.first)
        #expect(acme.name == "acme" && acme.displayName == "Acme")
        #expect(acme.id == TenantOrganization.derivedID(name: "acme"))
        #expect(acme.members == ["ada@example.com", "auth0|0123"])
        #expect(acme.assignMembershipOnLogin && !acme.signupEnabled)
        let globex = configuration.organizations[1]
        #expect(globex.id == "org_Globex0000000001" && globex.signupEnabled && !globex.assignMembershipOnLogin)
        #expect(configuration.identifiers.precedence == [.username, .email, .phoneNumber])
        #expect(configuration.identifiers.email == IdentifierAttribute(signup: .optional))
        #expect(configuration.identifiers.username.signup == .required)
        #expect(configuration.identifiers.username.usernameLength == 3...20)
        #expect(configuration.identifiers.phoneNumber == IdentifierAttribute(signup: .inactive))
        #expect(!configuration.identifiers.phoneNumber.identifierActive)
    }

    @Test func anEmptyFileKeepsTheDefaults() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(configurationFile: Array("{}".utf8))
        #expect(configuration.organizations.isEmpty)
        #expect(configuration.organizationUsage == .deny)
        #expect(configuration.organizationRequireBehavior == .noPrompt)
        #expect(configuration.identifiers == ConnectionAttributes())
        #expect(configuration.identifiers.email.signup == .required)
        #expect(configuration.identifiers.phoneNumber.signup == .optional)
        #expect(configuration.identifiers.username.signup == .optional)
    }

    @Test(arguments: [
        (#"{"organisations": []}"#, "organisations: unknown key"),
        (#"{"organization_usage": "sometimes"}"#, "organization_usage:"),
        (#"{"organization_require_behavior": 3}"#, "organization_require_behavior:"),
        (#"{"organizations": [{"display_name": "Acme"}]}"#, "organizations[0].name: missing"),
        (#"{"organizations": [{"name": "acme"}, {"name": "Not A Name"}]}"#, "organizations[1].name:"),
        (#"{"organizations": [{"name": "acme", "id": "acme"}]}"#, "organizations[0].id:"),
        (#"{"organizations": [{"name": "acme", "colour": "red"}]}"#, "organizations[0].colour: unknown key"),
        (#"{"organizations": [{"name": "acme"}, {"name": "acme"}]}"#, "organizations[1].name: acme is given twice"),
        (#"{"organizations": [{"name": "acme", "members": "ada@example.com"}]}"#, "organizations[0].members:"),
        (#"{"precedence": ["email", "fax"]}"#, "precedence[1]:"),
        (#"{"attributes": {"fax": {}}}"#, "attributes.fax: unknown key"),
        (#"{"attributes": {"email": {"signup": {"status": "maybe"}}}}"#, "attributes.email.signup.status:"),
        (#"{"attributes": {"email": {"identifier": {"active": "yes"}}}}"#, "attributes.email.identifier.active:"),
        (
            #"{"attributes": {"username": {"validation": {"min_length": 9, "max_length": 3}}}}"#,
            "attributes.username.validation.max_length:"
        ),
        (#"{"organizations": [}"#, "configuration file: not JSON"),
        (#"[]"#, "configuration file:"),
    ])
    func aMalformedFileNamesTheKey(file: String, named: String) {
        var configuration = TenantConfiguration()
        let error = #expect(throws: TenantError.self) { try configuration.apply(configurationFile: Array(file.utf8)) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.hasPrefix(named) == true, "\(error?.detail ?? "")")
        #expect(configuration.organizations.isEmpty && configuration.organizationUsage == .deny)
    }
}
