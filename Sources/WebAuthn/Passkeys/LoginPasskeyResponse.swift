public import FoundationEssentials

/// An authentication response that carries a user handle, usable as a ``LoginPasskey``
/// (Auth0 passkey API spec §4.1).
///
/// `AuthenticationResponseJSON.response.userHandle` is optional (WebAuthn L3 §5.2.2: an
/// authenticator may omit it for a non-discoverable credential), but Auth0's login needs it.
/// Rather than conforming the response directly and inventing a value, this type checks once,
/// when it is made, so a response without a user handle fails before any request is sent.
///
/// ```swift
/// let passkey = try LoginPasskeyResponse(WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: input))
/// ```
public struct LoginPasskeyResponse: LoginPasskey, Hashable {
    /// The response this passkey reads from.
    public let response: AuthenticationResponseJSON

    /// The bytes of `response.userHandle`, checked present when this value was made.
    public let userID: Data

    /// Wraps an authentication response that has a user handle.
    ///
    /// - Parameter response: the response, from any authenticator or browser.
    /// - Throws: `WebAuthnError.Code.malformedJSON` when `response.userHandle` is absent.
    public init(_ response: AuthenticationResponseJSON) throws(WebAuthnError) {
        guard let userHandle = response.response.userHandle else {
            throw WebAuthnError(
                .malformedJSON, "response.userHandle: missing; an Auth0 login needs the user handle of the passkey")
        }
        self.response = response
        self.userID = Data(userHandle.bytes)
    }

    /// The bytes of `rawId`.
    public var credentialID: Data { Data(response.rawId.bytes) }

    /// `authenticatorAttachment` when it is `platform` or `cross-platform`, else `nil`.
    public var attachment: AuthenticatorAttachment? { response.authenticatorAttachment?.auth0Attachment }

    /// The bytes of `response.clientDataJSON`.
    public var rawClientDataJSON: Data { Data(response.response.clientDataJSON.bytes) }

    /// The bytes of `response.authenticatorData`.
    public var rawAuthenticatorData: Data { Data(response.response.authenticatorData.bytes) }

    /// The bytes of `response.signature`.
    public var signature: Data { Data(response.response.signature.bytes) }
}
