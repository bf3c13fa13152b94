import PasskeyAuthenticator
import WebAuthn

/// A page bridge's ceremony body: `{options, requestId, mediation?, topOrigin?}`, read with the
/// JSON scanner when the text is plain (as ``CeremonyRequest``); a `get`'s options stay text
/// (``JSONText``) for the client's JSON path.
struct BridgeRequest<Options: CeremonyOptions>: Sendable, Codable, JSONObject {
    var options: Options
    /// The page's ID for the request, to abort it by: 1 to 64 characters.
    var requestId: String
    var mediation: String?
    var topOrigin: String?

    static var jsonMembers: JSONMembers<Self> {
        JSONMembers(
            [
                .member("options", \.options), .member("requestId", \.requestId),
                .member("mediation", \.mediation), .member("topOrigin", \.topOrigin),
            ])
    }

    static var unread: Self { Self(options: .unread, requestId: "") }

    /// The mediation asked for; an unknown value is the `TypeError` WebIDL throws for an enum.
    func credentialMediation() throws(ControlError) -> CredentialMediation {
        guard let mediation else { return .optional }
        guard let known = CredentialMediation(rawValue: mediation) else {
            throw ControlError(
                "TypeError", status: 400, "mediation \"\(mediation)\" is not a CredentialMediationRequirement")
        }
        return known
    }

    /// The request's ID, checked.
    func id() throws(ControlError) -> String {
        guard (1...64).contains(requestId.utf8.count) else {
            throw .invalidArgument("requestId is 1 to 64 characters")
        }
        return requestId
    }
}

/// A page bridge's signal body: `{kind, options, topOrigin?}` (WebAuthn L3 §5.1.11).
struct BridgeSignalRequest: Decodable, Sendable {
    let kind: String
    let options: [String: JSONValue]

    /// The signal; a missing member or one that is not base64url is the `TypeError` the
    /// specification throws (§5.1.11.1 step 2, §5.1.11.2 steps 2–3, §5.1.11.3 step 2).
    func signal() throws(ControlError) -> CredentialSignal {
        let rpID = try string("rpId")
        switch kind {
        case "unknownCredential":
            return .unknownCredential(rpID: rpID, credentialID: try base64URL(string("credentialId"), "credentialId"))
        case "allAcceptedCredentials":
            guard case .array(let ids)? = options["allAcceptedCredentialIds"] else {
                throw Self.typeError("allAcceptedCredentialIds must be an array of base64url strings")
            }
            let accepted = try ids.map { (id) throws(ControlError) -> [UInt8] in
                guard let text = id.stringValue else {
                    throw Self.typeError("allAcceptedCredentialIds must be an array of base64url strings")
                }
                return try base64URL(text, "allAcceptedCredentialIds")
            }
            return .allAcceptedCredentials(
                rpID: rpID, userHandle: try base64URL(string("userId"), "userId"), accepted: accepted)
        case "currentUserDetails":
            return .currentUserDetails(
                rpID: rpID, userHandle: try base64URL(string("userId"), "userId"), name: try string("name"),
                displayName: try string("displayName"))
        default:
            throw .invalidArgument("kind must be unknownCredential, allAcceptedCredentials or currentUserDetails")
        }
    }

    private func string(_ name: String) throws(ControlError) -> String {
        guard let value = options[name]?.stringValue else { throw Self.typeError("\(name) is a required string") }
        return value
    }

    private func base64URL(_ text: String, _ name: String) throws(ControlError) -> [UInt8] {
        do {
            return try Base64URL.decode(text)
        } catch {
            throw Self.typeError("\(name) is not base64url")
        }
    }

    private static func typeError(_ message: String) -> ControlError {
        ControlError("TypeError", status: 400, message)
    }
}
