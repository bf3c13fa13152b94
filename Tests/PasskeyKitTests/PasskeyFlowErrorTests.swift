import Auth0Passkeys
import PasskeyAuthenticator
import PasskeyKit
import Testing
import WebAuthn

/// `PasskeyFlowError(classifying:)`: the one place the libraries' errors are told apart, which
/// the CLI's failures and the control server's answers start from.
@Suite struct PasskeyFlowErrorTests {
    @Test func eachLibrarysErrorIsItsPartysCase() {
        let device = WebAuthnClientError(.notAllowed, "the user cancelled")
        guard case .device(let refusal)? = PasskeyFlowError(classifying: device) else {
            Issue.record("a WebAuthnClientError is the device's")
            return
        }
        #expect(refusal == device)
        guard case .store(let store)? = PasskeyFlowError(classifying: StoreError(.diskFull, "no space")) else {
            Issue.record("a StoreError is the store's")
            return
        }
        #expect(store.code == .diskFull)
        guard case .transport? = PasskeyFlowError(classifying: TransportError(.cannotConnect, "refused")) else {
            Issue.record("a TransportError is the transport's")
            return
        }
        guard case .session? = PasskeyFlowError(classifying: CredentialsManagerError(.noCredentials, "none")) else {
            Issue.record("a CredentialsManagerError is the session's")
            return
        }
        guard case .user(let user)? = PasskeyFlowError(classifying: VirtualUserError(.noDomain, "no domain")) else {
            Issue.record("a VirtualUserError is the user's")
            return
        }
        #expect(user.code == .noDomain)
    }

    @Test func aFlowErrorStaysAsItIsAndAnyOtherErrorIsNone() {
        let flow = PasskeyFlowError.user(VirtualUserError(.noDevice, "no device"))
        guard case .user(let user)? = PasskeyFlowError(classifying: flow) else {
            Issue.record("a PasskeyFlowError is itself")
            return
        }
        #expect(user.code == .noDevice)
        #expect(PasskeyFlowError(classifying: WebAuthnError(.badSignature, "no")) == nil)
        #expect(PasskeyFlowError(classifying: CancellationError()) == nil)
    }
}
