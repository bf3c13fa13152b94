import Auth0Passkeys
public import PasskeyAuthenticator
import PasskeyKit
import WebAuthn

extension ControlError {
    /// A refused ceremony: the `DOMException` name, as the CLI prints it, with 400.
    ///
    /// - Parameter error: the client's refusal.
    public init(_ error: WebAuthnClientError) {
        self.init(refusal: error)
    }

    /// A refusal whose code and reason are the caller's to see: the error's `CodedError/codeName`
    /// and `CodedError/reason`, with 400.
    private init(refusal error: some CodedError) {
        self.init(error.codeName, status: 400, error.reason)
    }

    /// A failure of the server's own making (a store that cannot be read or written): `unknown
    /// error`, 500, naming the failure without secrets (store and key errors carry none).
    ///
    /// - Parameter error: the failure.
    init(serverFault error: any Error) {
        if let error = error as? ControlError {
            self = error
        } else {
            self.init("unknown error", status: 500, "\(error)")
        }
    }

    /// A failed virtual-user flow: the Auth0 error code and the tenant's status class (a refusal
    /// is 400, a tenant that did not answer or failed is 502), the device's `DOMException`, or the
    /// session's or user's own code.
    ///
    /// - Parameter error: what the flow threw.
    public init(flow error: any Error) {
        if let error = error as? ControlError {
            self = error
            return
        }
        switch PasskeyFlowError(classifying: error) {
        case .authentication(let error): self.init(api: error)
        case .myAccount(let error): self.init(api: error)
        case .management(let error): self.init(api: error)
        case .device(let error): self.init(refusal: error)
        case .session(let error): self.init(refusal: error)
        case .user(let error): self.init(refusal: error)
        case .transport(let error): self.init(error.codeName, status: 502, "no answer: \(error.reason)")
        case .store, .webAuth, nil: self.init(serverFault: error)
        }
    }

    private init(api error: any Auth0APIError) {
        if let transport = error.cause as? TransportError {
            self.init(transport.codeName, status: 502, "no answer from the tenant: \(transport.reason)")
        } else {
            let refused = (400..<500).contains(error.statusCode)
            self.init(
                error.codeName, status: refused ? 400 : 502,
                "the tenant answered \(error.statusCode): \(error.reason)")
        }
    }
}
