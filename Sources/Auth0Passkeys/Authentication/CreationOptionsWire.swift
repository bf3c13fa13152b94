import FoundationEssentials
import WebAuthn

/// `authn_params_public_key` of a signup or enrollment challenge, read as leniently as Auth0's SDK
/// reads it (spec §1.2, §5.2): `challenge`, `rp.id`, `user.id` and `user.name` are required; every
/// other member is optional and, when it does not decode, ignored.
struct CreationOptionsWire: Decodable {
    let options: PublicKeyCredentialCreationOptionsJSON
    let relyingPartyId: String

    private enum Keys: String, CodingKey {
        case challenge, rp, user, pubKeyCredParams, timeout, excludeCredentials, authenticatorSelection
        case attestation, hints, extensions
    }

    private struct RelyingParty: Decodable {
        let id: String
        let name: String?
    }

    private struct User: Decodable {
        let id: Base64URL
        let name: String
        let displayName: String?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let rp = try container.decode(RelyingParty.self, forKey: .rp)
        let user = try container.decode(User.self, forKey: .user)
        relyingPartyId = rp.id
        options = PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: rp.name ?? rp.id, id: rp.id),
            user: PublicKeyCredentialUserEntityJSON(
                id: user.id, name: user.name, displayName: user.displayName ?? user.name),
            challenge: try container.decode(Base64URL.self, forKey: .challenge),
            pubKeyCredParams: container.lenient([PublicKeyCredentialParameters].self, .pubKeyCredParams) ?? [],
            timeout: container.lenient(UInt32.self, .timeout),
            excludeCredentials: container.lenient([PublicKeyCredentialDescriptorJSON].self, .excludeCredentials),
            authenticatorSelection: container.lenient(AuthenticatorSelectionCriteria.self, .authenticatorSelection),
            hints: container.lenient([PublicKeyCredentialHint].self, .hints),
            attestation: container.lenient(AttestationConveyancePreference.self, .attestation),
            extensions: container.lenient(AuthenticationExtensionsClientInputsJSON.self, .extensions))
    }
}

extension KeyedDecodingContainer {
    /// The member, or `nil` when it is absent, `null`, or does not decode: for members the SDK
    /// ignores.
    func lenient<Value: Decodable>(_ type: Value.Type, _ key: Key) -> Value? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// A number of seconds sent as a number or a numeric string, as the SDK reads `expires_in`;
    /// `nil` when absent, malformed or not finite (`"inf"` and `"nan"` parse, but no token lives
    /// forever).
    func lenientSeconds(_ key: Key) -> Double? {
        (lenient(Double.self, key) ?? lenient(String.self, key).flatMap(Double.init)).flatMap { $0.isFinite ? $0 : nil }
    }
}
