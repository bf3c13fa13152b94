/// A WebAuthn enumeration carried as a `DOMString`: an open set of strings.
///
/// Clients and relying parties ignore values they do not know (WebAuthn L3 §2.1.1), so these
/// types are not Swift `enum`s: an unknown value decodes, compares and re-encodes unchanged. Each
/// enumeration is this one type over its own tag, named by a type alias
/// (``AuthenticatorTransport``, ``UserVerificationRequirement``, …), with its known values as
/// static members of an extension of that alias.
///
/// ```swift
/// public enum AuthenticatorTransportValues {}  // below, with the other tags
/// public typealias AuthenticatorTransport = OpenStringEnumeration<AuthenticatorTransportValues>
/// extension AuthenticatorTransport {
///     public static var usb: Self { "usb" }
/// }
/// ```
public struct OpenStringEnumeration<Tag>: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a string literal, as ``init(rawValue:)`` does.
    ///
    /// Disfavoured so that `AuthenticatorTransport.init` as a function still names
    /// ``init(rawValue:)``, as it did when each enumeration was a type of its own.
    ///
    /// - Parameter value: the wire string.
    @_disfavoredOverload
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The wire string.
    public var description: String { rawValue }
}

// The tags, one per enumeration, each named after its enumeration.

/// The tag of ``AttestationConveyancePreference``.
public enum AttestationConveyancePreferenceValues {}

/// The tag of ``AttestationFormat``.
public enum AttestationFormatValues {}

/// The tag of ``AuthenticatorAttachment``.
public enum AuthenticatorAttachmentValues {}

/// The tag of ``AuthenticatorStatus``.
public enum AuthenticatorStatusValues {}

/// The tag of ``AuthenticatorTransport``.
public enum AuthenticatorTransportValues {}

/// The tag of ``CollectedClientData/CeremonyType``.
public enum CeremonyTypeValues {}

/// The tag of ``PublicKeyCredentialHint``.
public enum PublicKeyCredentialHintValues {}

/// The tag of ``PublicKeyCredentialType``.
public enum PublicKeyCredentialTypeValues {}

/// The tag of ``ResidentKeyRequirement``.
public enum ResidentKeyRequirementValues {}

/// The tag of ``UserVerificationRequirement``.
public enum UserVerificationRequirementValues {}
