import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import PasskeyTenant
import Testing
import WebAuthn

/// Every public error of the libraries has one shape (``CodedError``), so code outside the
/// package maps any of them in one place: a stable code name, a reason, and the error behind it.
@Suite struct ErrorShapeTests {
    /// One error of each public type, with the code name a script would compare.
    static let errors: [(any CodedError, String)] = [
        (WebAuthnError(.badSignature, "the signature does not verify"), "bad-signature"),
        (StoreError(.diskFull, "no space left", file: "abc.json"), "disk-full"),
        (AuthenticatorError(.noCredentials, "no credential for this RP"), "CTAP2_ERR_NO_CREDENTIALS"),
        (WebAuthnClientError(.notAllowed, "the user cancelled"), "NotAllowedError"),
        (TransportError(.cannotConnect, "connection refused"), "cannot-connect"),
        (
            AuthenticationError(
                info: ["error": .string("invalid_grant"), "error_description": .string("bad")], statusCode: 403),
            "invalid_grant"
        ),
        (
            MyAccountError(info: ["type": .string("A0E-403-0001"), "title": .string("Forbidden")], statusCode: 403),
            "A0E-403-0001"
        ),
        (CredentialsStorageError(.tampered, path: "/tmp/x", "altered"), "tampered"),
        (CredentialsManagerError(.noCredentials, "nothing stored"), "noCredentials"),
        (TenantError(.invalidGrant, status: 403, "wrong-origin"), "invalid_grant"),
        (VirtualUserError(.noDomain, "no domain"), "no_domain"),
        (PasskeyFlowError.device(WebAuthnClientError(.notAllowed, "the user cancelled")), "NotAllowedError"),
    ]

    @Test(arguments: 0..<errors.count)
    func everyErrorHasACodeNameAndAReason(index: Int) {
        let (error, name) = Self.errors[index]
        #expect(error.codeName == name)
        #expect(!error.reason.isEmpty)
        #expect(String(describing: error).contains(error.reason))
    }

    @Test func causesAreReachableThroughTheShape() {
        let store = StoreError(.diskFull, "no space left")
        let authenticator = AuthenticatorError(store)
        let client = WebAuthnClientError(authenticator)
        let chain = sequence(first: client as any Error) { ($0 as? any CodedError)?.cause }.map { "\(type(of: $0))" }
        #expect(chain == ["WebAuthnClientError", "AuthenticatorError", "StoreError"])
        #expect(authenticator.codeName == "CTAP2_ERR_KEY_STORE_FULL")

        let flow = PasskeyFlowError.store(store)
        #expect(flow.cause as? StoreError == store && flow.reason == store.reason)

        let transport = TransportError(.timedOut, "no answer in 10 s")
        let api = AuthenticationError(info: [:], statusCode: 0, cause: transport)
        #expect((api.cause as? TransportError)?.code == .timedOut)
    }

    @Test func errorsAreEqualByCodeAlone() {
        #expect(WebAuthnError(.wrongOrigin, "one text") == WebAuthnError(.wrongOrigin, "another"))
        #expect(WebAuthnError(.wrongOrigin, "same") != WebAuthnError(.wrongChallenge, "same"))
        #expect(Set([StoreError(.corrupt, "a"), StoreError(.corrupt, "b", file: "f")]).count == 1)
    }
}
