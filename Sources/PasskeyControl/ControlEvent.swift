public import WebAuthn

/// Something that happened to a credential of a virtual authenticator, as Chrome DevTools'
/// WebAuthn domain reports it (`WebAuthn.credentialAdded`, `credentialAsserted`,
/// `credentialUpdated`, `credentialDeleted`), with the page's origin when a page caused it.
///
/// The control server streams a session's events as Server-Sent Events (`GET
/// /session/{s}/webauthn/events`), and `passkey mcp` reads them with a tool.
public struct ControlEvent: Sendable, Hashable, Encodable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Encodable, CaseIterable {
        /// A credential was made (a create ceremony, or Add Credential).
        case credentialAdded
        /// A credential signed an assertion.
        case credentialAsserted
        /// A credential's user details or properties changed (a signal, or Set Credential Properties).
        case credentialUpdated
        /// A credential was removed (a signal, or Remove Credential).
        case credentialDeleted
    }

    /// The event's place in its session, from 1; each event's is one more than the last's.
    public internal(set) var seq: Int
    /// What happened.
    public let type: Kind
    /// The virtual authenticator whose credential it is.
    public let authenticatorId: String
    /// The credential.
    public let credentialId: Base64URL
    /// The credential's RP ID.
    public let rpId: String
    /// The origin of the page or caller that caused it; `nil` for a command of the control API.
    public let origin: String?
    /// The credential's user handle, when known.
    public let userHandle: Base64URL?
    /// The signature counter after an assertion.
    public let signCount: UInt32?

    /// Describes an event; its ``seq`` is given when a session records it.
    ///
    /// - Parameters:
    ///   - type: what happened.
    ///   - authenticatorId: the virtual authenticator.
    ///   - credentialId: the credential.
    ///   - rpId: its RP ID.
    ///   - origin: the caller's origin, if a ceremony or a signal caused it.
    ///   - userHandle: the user handle, when known.
    ///   - signCount: the counter after an assertion.
    public init(
        _ type: Kind, authenticatorId: String, credentialId: [UInt8], rpId: String, origin: WebOrigin? = nil,
        userHandle: [UInt8]? = nil, signCount: UInt32? = nil
    ) {
        self.seq = 0
        self.type = type
        self.authenticatorId = authenticatorId
        self.credentialId = Base64URL(credentialId)
        self.rpId = rpId
        self.origin = origin?.description
        self.userHandle = userHandle.flatMap { $0.isEmpty ? nil : Base64URL($0) }
        self.signCount = signCount
    }
}
