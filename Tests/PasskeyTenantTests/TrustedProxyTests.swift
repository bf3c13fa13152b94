import Foundation
import HTTPTypes
import HummingbirdTesting
import TestSupport
import Testing

@testable import PasskeyTenant

/// Behind a trusted proxy the attempt limit keys on the client's address from `X-Forwarded-For`
/// (the rightmost entry that is not a trusted proxy); from any other peer the header is ignored.
@Suite struct TrustedProxyTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false), ("10.0.0.0/8", "10.200.3.4", true),
        ("10.0.0.0/8", "11.0.0.1", false), ("192.168.1.128/25", "192.168.1.200", true),
        ("192.168.1.128/25", "192.168.1.127", false), ("0.0.0.0/0", "203.0.113.9", true), ("::1", "::1", true),
        ("::1", "::2", false), ("fd00::/8", "fd12:3456::1", true), ("fd00::/8", "fe80::1", false),
        ("127.0.0.1", "::ffff:127.0.0.1", true), ("2001:db8::/32", "2001:db8:0:0:0:0:0:7", true),
        ("::ffff:10.0.0.1", "10.0.0.1", true), ("fe80::1", "fe80::1%eth0", true), ("127.0.0.1", "::1", false),
    ])
    func aBlockHoldsItsAddresses(block: String, address: String, held: Bool) throws {
        let bytes = try #require(TrustedProxy.address(address[...]))
        #expect(try TrustedProxy(block).contains(bytes) == held)
    }

    @Test(arguments: [
        "", "host", "1.2.3", "1.2.3.4.5", "256.0.0.1", "+1.2.3.4", "1.2.3.4/33", "1.2.3.4/+8", "1.2.3.4/", "::1/129",
        "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", ":::", "1.2.3.4/8/8",
    ])
    func anythingElseIsRefused(text: String) {
        let error = #expect(throws: TenantError.self) { try TrustedProxy(text) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func theClientIsTheRightmostUntrustedEntry() throws {
        let proxies = [try TrustedProxy("127.0.0.1"), try TrustedProxy("10.0.0.0/8")]
        func client(_ peer: String?, _ headers: [String]) -> String? {
            TrustedProxy.clientAddress(peer: peer, forwardedFor: headers, proxies: proxies)
        }
        #expect(client("127.0.0.1", ["203.0.113.7"]) == "203.0.113.7")
        // The client's own entries are left of what the proxies appended.
        #expect(client("127.0.0.1", ["198.51.100.1, 203.0.113.7"]) == "203.0.113.7")
        #expect(client("127.0.0.1", ["198.51.100.1", "203.0.113.7, 10.1.1.1"]) == "203.0.113.7")
        #expect(client("127.0.0.1", [" 10.0.0.2 ,10.0.0.3"]) == "10.0.0.2")
        #expect(client("127.0.0.1", []) == "127.0.0.1")
        // From a peer that is not a proxy the header is the client's word, and ignored.
        #expect(client("203.0.113.9", ["198.51.100.1"]) == "203.0.113.9")
        #expect(client(nil, ["198.51.100.1"]) == nil)
        let untrusting = TrustedProxy.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.1"], proxies: [])
        #expect(untrusting == "127.0.0.1")
    }

    @Test func theConfigurationFileTakesTrustedProxies() throws {
        var configuration = TenantConfiguration()
        try configuration.apply(configurationFile: Array(#"{"trusted_proxies": ["127.0.0.1", "fd00::/8"]}"#.utf8))
        #expect(configuration.trustedProxies == [try TrustedProxy("127.0.0.1"), try TrustedProxy("fd00::/8")])
        let error = #expect(throws: TenantError.self) {
            try configuration.apply(configurationFile: Array(#"{"trusted_proxies": ["127.0.0.1", "nope"]}"#.utf8))
        }
        #expect(error?.detail.hasPrefix("trusted_proxies[1]") == true)
    }

    /// Two refusals from one forwarded client lock it out and no other client behind the proxy;
    /// without the proxy trusted, every client shares the proxy's lockout.
    @Test(arguments: [true, false])
    func theLockoutIsPerForwardedClientOnlyBehindATrustedProxy(trusted: Bool) async throws {
        var configuration = AttemptLimitTests.limits(perUser: 1000, perAddress: 2)
        configuration.trustedProxies = trusted ? [try TrustedProxy("127.0.0.1")] : []
        let tenant = try await TestTenant.open(configuration: configuration)
        let statuses = try await TestTenant.serve(tenant) { http, _ in
            func challenge(from client: String) async throws -> UInt16 {
                let result = try await http.send(
                    .post, "/passkey/challenge", raw: AttemptLimitTests.unknownClient,
                    headers: [.xForwardedFor: client])
                return UInt16(result.status.code)
            }
            return [
                try await challenge(from: "203.0.113.1"), try await challenge(from: "203.0.113.1"),
                try await challenge(from: "198.51.100.9, 203.0.113.1"), try await challenge(from: "203.0.113.2"),
            ]
        }
        #expect(statuses == (trusted ? [401, 401, 429, 401] : [401, 401, 429, 429]))
        await tenant.close()
    }
}
