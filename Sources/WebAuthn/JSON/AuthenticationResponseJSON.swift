/// An authentication ceremony's result as `PublicKeyCredential.toJSON()` gives it (WebAuthn L3 §5.1).
public typealias AuthenticationResponseJSON = PublicKeyCredentialJSON<AuthenticatorAssertionResponseJSON>
