import Foundation
import HTTPTypes
import HummingbirdTesting
import PasskeyAuthenticator
import PasskeyTenant
import TestSupport
import Testing
import WebAuthn

/// The Management API as a test drives it (auth0-passkey-api.md §15): the machine-to-machine
/// client's token, users and passkeys posted as raw JSON, and passkeys made on a device outside
/// any tenant ceremony, as a seeding tool makes them.
extension TenantHarness {
    /// The Management API's audience on the default `localhost` tenant.
    static let managementAudience = "https://localhost/api/v2/"

    /// The client credentials grant's form, with `changes` applied (nil removes a parameter).
    func clientCredentials(_ changes: [String: String?] = [:]) -> [String: String] {
        var values: [String: String?] = [
            "grant_type": "client_credentials", "client_id": tenant.managementClientID,
            "client_secret": tenant.managementClientSecret.text, "audience": Self.managementAudience,
        ]
        for (name, value) in changes { values[name] = value }
        return values.compactMapValues { $0 }
    }

    /// A Management API access token, with `scope` when given (all of the client's otherwise).
    func managementToken(_ http: any TestClientProtocol, scope: String? = nil) async throws -> String {
        let result = try await http.send(.post, "/oauth/token", json: clientCredentials(["scope": scope]))
        guard result.status == .ok else { throw HarnessError(result) }
        return try #require(result.json["access_token"]?.stringValue)
    }

    /// `POST /api/v2/users` for `email`; the new user's ID.
    func createManagedUser(_ http: any TestClientProtocol, token: String, email: String = "ada@example.com")
        async throws -> String
    {
        let result = try await http.send(
            .post, "/api/v2/users", json: ["connection": "Username-Password-Authentication", "email": email],
            bearer: token)
        guard result.status == .created else { throw HarnessError(result) }
        return try #require(result.json["user_id"]?.stringValue)
    }

    /// `POST /api/v2/users/{id}/authentication-methods` with `passkey`'s fields (and `changes`).
    func postPasskey(
        _ http: any TestClientProtocol, token: String, userID: String, _ passkey: MadePasskey,
        _ changes: [String: JSONValue?] = [:]
    ) async throws -> HTTPResult {
        var body = passkey.body
        for (name, value) in changes { body[name] = value }
        return try await http.send(
            .post, "/api/v2/users/\(Self.pathEncoded(userID))/authentication-methods",
            json: body.compactMapValues { $0 }, bearer: token)
    }

    /// `auth0|…` with its `|` percent-encoded, as SDKs put an ID in a path.
    static func pathEncoded(_ id: String) -> String {
        id.replacingOccurrences(of: "|", with: "%7C")
    }
}

/// A passkey made on a device for RP ID `localhost`, as a seeding tool makes one: the fields
/// `POST /api/v2/users/{id}/authentication-methods` takes.
struct MadePasskey: Sendable {
    let credentialID: [UInt8]
    let publicKey: [UInt8]
    let userHandle: [UInt8]
    let backupEligible: Bool

    /// Creates a discoverable credential on `device` for user handle `userHandle`, with one of
    /// `algorithms`, verified by a relying party of its own (not the tenant).
    static func make(
        on device: WebAuthnClient, userHandle: [UInt8] = SecureRandom.bytes(32),
        algorithms: [COSEAlgorithm] = [.es256]
    ) async throws -> MadePasskey {
        let relyingParty = RelyingParty(id: "localhost", allowedAlgorithms: algorithms)
        let generated = relyingParty.generateRegistrationOptions(
            rpName: "localhost",
            user: PublicKeyCredentialUserEntityJSON(id: Base64URL(userHandle), name: "ada", displayName: "Ada"),
            residentKey: .required)
        let registration = try await device.create(generated.options, origin: TenantHarness.origin)
        let verified = try relyingParty.verifyRegistration(registration, challenge: generated.challenge)
        return MadePasskey(
            credentialID: verified.credentialID, publicKey: verified.credentialPublicKey, userHandle: userHandle,
            backupEligible: verified.backupEligible)
    }

    /// The method's body: `public_key` in padded standard base64, as Auth0 shows it.
    var body: [String: JSONValue?] {
        [
            "type": .string("passkey"), "key_id": .string(Base64URL.encode(credentialID)),
            "public_key": .string(Data(publicKey).base64EncodedString()),
            "user_handle": .string(Base64URL.encode(userHandle)),
            "credential_device_type": .string(backupEligible ? "multi_device" : "single_device"),
        ]
    }
}

/// `{statusCode, error, message, errorCode}` and nothing else, with `status`'s reason phrase.
func expectManagementError(
    _ result: HTTPResult, _ status: HTTPResponse.Status, _ errorCode: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "\(result.text)", sourceLocation: sourceLocation)
    #expect(result.json["statusCode"] == .number(Double(status.code)), sourceLocation: sourceLocation)
    #expect(result.json["error"] == .string(status.reasonPhrase), sourceLocation: sourceLocation)
    #expect(result.json["errorCode"] == .string(errorCode), "\(result.text)", sourceLocation: sourceLocation)
    #expect(result.json["message"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(
        Set(result.json.keys) == ["statusCode", "error", "message", "errorCode"], sourceLocation: sourceLocation)
}
