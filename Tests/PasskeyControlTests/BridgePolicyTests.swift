import Auth0Passkeys
import PasskeyControl
import TestSupport
import Testing
import WebAuthn

/// The page bridge's relax switch: which of a browser's rules for frames (WebAuthn L3 §5.9
/// permissions policy, §5.1.3 user activation) the script enforces, by name in `bridge.js?relax=`
/// and as the configuration's `policy` member. (What the script does with it runs in three
/// engines: Tests/Browser/test_frames_and_windows.py.)
@Suite struct BridgePolicyTests {
    @Test func bothRulesAreEnforcedUnlessRelaxedByName() throws {
        #expect(BridgePolicy.enforced == BridgePolicy(permissionsPolicy: true, userActivation: true))
        #expect(try BridgePolicy(relaxing: []) == .enforced)
        #expect(try BridgePolicy(relaxing: ["permissions-policy"]) == BridgePolicy(permissionsPolicy: false))
        #expect(try BridgePolicy(relaxing: ["user-activation"]) == BridgePolicy(userActivation: false))
        let both = try BridgePolicy(relaxing: ["user-activation", "permissions-policy", "user-activation"])
        #expect(both == BridgePolicy(permissionsPolicy: false, userActivation: false))
        #expect(both.relaxed == ["permissions-policy", "user-activation"])
        #expect(BridgePolicy.enforced.relaxed == [])
        #expect(BridgePolicy.ruleNames.allSatisfy { (try? BridgePolicy(relaxing: [$0]).relaxed) == [$0] })
    }

    @Test func anUnknownRuleIsAnInvalidArgument() {
        for name in ["", "permissions_policy", "Permissions-Policy", "csp"] {
            #expect(throws: ControlError.invalidArgument("")) { try BridgePolicy(relaxing: [name]) }
        }
    }

    @Test func theScriptCarriesThePolicyItWasAskedFor() async throws {
        try await withControlServer { client in
            func policy(_ query: String) async throws -> [String: Bool] {
                let bridge = try await PageBridgeTests.Bridge(client, query: query)
                let members = try #require(bridge.configuration["policy"]?.objectValue)
                return members.compactMapValues(\.boolValue)
            }
            #expect(try await policy("") == ["permissionsPolicy": true, "userActivation": true])
            #expect(
                try await policy("?relax=user-activation") == ["permissionsPolicy": true, "userActivation": false])
            #expect(
                try await policy("?relax=permissions-policy&relax=user-activation&origin=http://localhost:5000")
                    == ["permissionsPolicy": false, "userActivation": false])
            let platform = try await PageBridgeTests.Bridge(client)
            let refused = try await client.send(.get, platform.path + "/bridge.js?relax=csp")
            #expect(refused.status == 400)
            #expect(refused.text.contains("invalid argument") && refused.text.contains("csp"))
        }
    }

    @Test func theServiceMakesAScriptWithAPolicy() async throws {
        let service = ControlService()
        let session = await service.newSession()
        let platform = try VirtualAuthenticatorConfiguration(parameters: ["softpasskey:profile": .string("platform")])
        let authenticator = try await service.addAuthenticator(session: session, platform)
        let relaxed = try await service.bridgeScript(
            session: session, authenticator: authenticator, endpoint: "http://127.0.0.1:1/bridge",
            policy: BridgePolicy(permissionsPolicy: false))
        #expect(relaxed.contains(#""policy":{"permissionsPolicy":false,"userActivation":true}"#))
        let enforced = try await service.bridgeScript(
            session: session, authenticator: authenticator, endpoint: "http://127.0.0.1:1/bridge")
        #expect(enforced.contains(#""policy":{"permissionsPolicy":true,"userActivation":true}"#))
    }
}
