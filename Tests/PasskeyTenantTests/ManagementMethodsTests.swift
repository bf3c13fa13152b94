import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The Management API's authentication methods (auth0-passkey-api.md §15.3): posting a passkey,
/// listing a user's methods a page at a time, deleting one, and the refusals.
@Suite struct ManagementMethodsTests {
    @Test func aPostedPasskeyIsConfirmedAndListed() async throws {
        let harness = try await TenantHarness()
        let passkey = try await MadePasskey.make(on: harness.device)
        let (userID, created, list, totals) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let created = try await harness.postPasskey(
                http, token: token, userID: userID, passkey,
                ["transports": .array([.string("internal"), .string("hybrid")]), "name": .string("Laptop")])
            let path = "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods"
            return (
                userID, created, try await http.send(.get, path, bearer: token),
                try await http.send(.get, path + "?include_totals=true", bearer: token)
            )
        }
        #expect(created.status == .created, "\(created.text)")
        let id = try #require(created.json["id"]?.stringValue)
        #expect(id.hasPrefix("passkey|dev_"))
        #expect(created.json["type"] == .string("passkey"))
        #expect(created.json["confirmed"] == .bool(true))
        #expect(created.json["key_id"] == .string(Base64URL.encode(passkey.credentialID)))
        #expect(created.json["public_key"] == .string(Data(passkey.publicKey).base64EncodedString()))
        #expect(created.json["user_handle"] == .string(Base64URL.encode(passkey.userHandle)))
        #expect(created.json["aaguid"] == .string("00000000-0000-0000-0000-000000000000"))
        #expect(created.json["relying_party_identifier"] == .string("localhost"))
        #expect(created.json["credential_backed_up"] == .bool(false))
        #expect(created.json["transports"] == .array([.string("internal"), .string("hybrid")]))
        #expect(created.json["name"] == .string("Laptop"))
        #expect(created.json["identity_user_id"] == .string(String(userID.dropFirst("auth0|".count))))
        #expect(created.json["created_at"]?.stringValue?.hasSuffix("Z") == true)
        #expect(list.status == .ok)
        let items = try list.decode([JSONValue].self)
        #expect(items.count == 1)
        #expect(items.first?.objectValue == created.json)
        #expect(totals.json["authenticators"]?.arrayValue == items)
        #expect(totals.json["start"] == .number(0))
        #expect(totals.json["limit"] == .number(50))
        #expect(totals.json["total"] == .number(1))
    }

    @Test func aPublicKeyIsReadInEitherAlphabetPaddedOrNot() async throws {
        let harness = try await TenantHarness()
        let first = try await MadePasskey.make(on: harness.device)
        let second = try await MadePasskey.make(on: harness.device)
        let results = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let unpadded = Data(second.publicKey).base64EncodedString().filter { $0 != "=" }
            return [
                try await harness.postPasskey(
                    http, token: token, userID: userID, first,
                    ["public_key": .string(Base64URL.encode(first.publicKey))]),
                try await harness.postPasskey(
                    http, token: token, userID: userID, second, ["public_key": .string(unpadded)]),
            ]
        }
        for result in results {
            #expect(result.status == .created, "\(result.text)")
        }
    }

    @Test func methodsComeAPageAtATime() async throws {
        let harness = try await TenantHarness()
        let (page, totals, beyond, tooLarge, negative, notANumber, badFlag) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            for _ in 0..<3 {
                let made = try await harness.postPasskey(
                    http, token: token, userID: userID, try await MadePasskey.make(on: harness.device))
                guard made.status == .created else { throw HarnessError(made) }
            }
            let path = "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods"
            return (
                try await http.send(.get, path + "?page=1&per_page=2", bearer: token),
                try await http.send(.get, path + "?page=1&per_page=2&include_totals=true", bearer: token),
                try await http.send(.get, path + "?page=5&per_page=100", bearer: token),
                try await http.send(.get, path + "?per_page=101", bearer: token),
                try await http.send(.get, path + "?page=-1", bearer: token),
                try await http.send(.get, path + "?per_page=ten", bearer: token),
                try await http.send(.get, path + "?include_totals=yes", bearer: token)
            )
        }
        #expect(try page.decode([JSONValue].self).count == 1)
        #expect(totals.json["authenticators"]?.arrayValue?.count == 1)
        #expect(totals.json["start"] == .number(2))
        #expect(totals.json["limit"] == .number(2))
        #expect(totals.json["total"] == .number(3))
        #expect(beyond.text == "[]")
        for refused in [tooLarge, negative, notANumber, badFlag] {
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.json["errorCode"] == .string("invalid_query_string"))
        }
    }

    @Test func aKeyIDIsTakenOnceAcrossUsers() async throws {
        let harness = try await TenantHarness()
        let passkey = try await MadePasskey.make(on: harness.device)
        let (again, elsewhere) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let ada = try await harness.createManagedUser(http, token: token)
            let bob = try await harness.createManagedUser(http, token: token, email: "bob@example.com")
            let first = try await harness.postPasskey(http, token: token, userID: ada, passkey)
            guard first.status == .created else { throw HarnessError(first) }
            return (
                try await harness.postPasskey(http, token: token, userID: ada, passkey),
                try await harness.postPasskey(http, token: token, userID: bob, passkey)
            )
        }
        for result in [again, elsewhere] {
            #expect(result.status == .conflict, "\(result.text)")
            #expect(result.json["statusCode"] == .number(409))
            #expect(result.json["error"] == .string("Conflict"))
        }
    }

    /// One field changed from a good passkey body, each a 400 `invalid_body`.
    static let badFields: [(String, JSONValue?)] = [
        ("type", .string("totp")),
        ("type", nil),
        ("key_id", nil),
        ("key_id", .string("not base64!")),
        ("public_key", nil),
        ("public_key", .string("AAAA")),
        ("public_key", .string(Data([0xA1, 0x01, 0x02]).base64EncodedString())),
        ("public_key", .string("pQECAyYgASFYIMmZV5rlXLw4dl8Lfd2L7WdoQgCu4JG3yYck")),
        ("user_handle", nil),
        ("user_handle", .string(Base64URL.encode([UInt8](repeating: 1, count: 65)))),
        ("aaguid", .string("not-a-uuid")),
        ("relying_party_identifier", .string("example.com")),
        ("credential_device_type", .string("many_devices")),
        ("credential_backed_up", .string("yes")),
        ("identity_user_id", .string("someone-else")),
        ("transports", .array([.string("usb nfc")])),
        ("confirmed", .bool(true)),
        ("public_key_spki", .string("AAAA")),
    ]

    @Test(arguments: 0..<badFields.count)
    func aBadPasskeyFieldIsInvalidBody(index: Int) async throws {
        let (field, value) = Self.badFields[index]
        let harness = try await TenantHarness()
        let passkey = try await MadePasskey.make(on: harness.device)
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            var body = passkey.body
            body[field] = value
            return try await http.send(
                .post, "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods",
                json: body.compactMapValues { $0 }, bearer: token)
        }
        #expect(result.status == .badRequest, "\(field): \(result.text)")
        #expect(result.json["errorCode"] == .string("invalid_body"), "\(field)")
    }

    @Test func aBackedUpSingleDeviceKeyIsRefused() async throws {
        let harness = try await TenantHarness()
        let passkey = try await MadePasskey.make(on: harness.device)
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            return try await harness.postPasskey(
                http, token: token, userID: userID, passkey,
                ["credential_device_type": .string("single_device"), "credential_backed_up": .bool(true)])
        }
        #expect(result.status == .badRequest)
        #expect(result.json["errorCode"] == .string("invalid_body"))
    }

    @Test func aKeyOfAnAlgorithmTheTenantRefusesIsInvalidBody() async throws {
        var configuration = TenantConfiguration()
        configuration.algorithms = [.eddsa]
        let harness = try await TenantHarness(configuration: configuration)
        let passkey = try await MadePasskey.make(on: harness.device, algorithms: [.es256])
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            return try await harness.postPasskey(http, token: token, userID: userID, passkey)
        }
        #expect(result.status == .badRequest)
        #expect(result.json["errorCode"] == .string("invalid_body"))
        #expect(result.json["message"]?.stringValue?.contains("algorithm") == true)
    }

    @Test func aMalformedBodyIsInvalidBody() async throws {
        let harness = try await TenantHarness()
        let result = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            return try await http.send(
                .post, "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods",
                raw: #"{"type":"passkey","#, bearer: token)
        }
        #expect(result.status == .badRequest)
        #expect(result.json["errorCode"] == .string("invalid_body"))
    }

    @Test func aDeletedMethodIsGone() async throws {
        let harness = try await TenantHarness()
        let (deleted, list, again) = try await harness.router { http in
            let token = try await harness.managementToken(http)
            let userID = try await harness.createManagedUser(http, token: token)
            let created = try await harness.postPasskey(
                http, token: token, userID: userID, try await MadePasskey.make(on: harness.device))
            let id = try #require(created.json["id"]?.stringValue)
            let path = "/api/v2/users/\(TenantHarness.pathEncoded(userID))/authentication-methods"
            let method = path + "/" + id.replacingOccurrences(of: "|", with: "%7C")
            return (
                try await http.send(.delete, method, contentType: nil, bearer: token),
                try await http.send(.get, path, bearer: token),
                try await http.send(.delete, method, contentType: nil, bearer: token)
            )
        }
        #expect(deleted.status == .noContent)
        #expect(deleted.body.isEmpty)
        #expect(list.text == "[]")
        #expect(again.status == .notFound)
        #expect(again.json["statusCode"] == .number(404))
    }
}
