/// The shape every public error of SoftPasskey has: a stable code, a reason in words, and the
/// error behind it when there is one.
///
/// Each library keeps one error type of its own (``WebAuthnError`` here; the authenticator's,
/// the store's, the Auth0 client's, the tenant's, …) with a `Code` vocabulary of its own, and
/// every one of them adopts this protocol. A front end (the `passkey` CLI, the control server,
/// the MCP server) therefore maps any error it meets in one place: ``codeName`` is what it
/// reports, ``reason`` what it explains, ``cause`` what it may unwrap, and it needs a case of
/// its own only where it adds something (a hint, an HTTP status).
///
/// ```swift
/// do {
///     _ = try relyingParty.verifyAuthentication(response, challenge: challenge, credential: record)
/// } catch let error as any CodedError {
///     print("\(error.codeName): \(error.reason)")  // "bad-signature: …"
/// }
/// ```
///
/// Conforming types get `description` (`<code>: <reason>`) and,
/// when they are `Hashable`, equality and hashing on ``code`` alone: the reason is for people,
/// so two errors with the same code are the same error. A type overrides either by declaring
/// its own.
public protocol CodedError: Error, Sendable, CustomStringConvertible {
    /// The type of the error's code: a small registry of named values.
    associatedtype Code: Sendable, Hashable, CustomStringConvertible

    /// What went wrong, from the module's own vocabulary.
    var code: Code { get }

    /// Why, in words fit for a terminal. Never contains a secret (key, token, passphrase).
    var reason: String { get }

    /// The error behind this one, if any: a store failure behind an authenticator's, a transport
    /// failure behind an API error, ….
    var cause: (any Error)? { get }
}

extension CodedError {
    /// The code's stable name: kebab-case for most modules (`bad-signature`, `disk-full`), the
    /// specification's name where one exists (`CTAP2_ERR_NO_CREDENTIALS`, `NotAllowedError`,
    /// `invalid_grant`). Scripts and servers compare it; it never changes for a given code.
    public var codeName: String { code.description }

    /// No cause, for errors that never wrap another.
    public var cause: (any Error)? { nil }

    /// `<code>: <reason>`.
    public var description: String { "\(code): \(reason)" }
}

extension CodedError where Self: Hashable {
    /// Two errors are equal when their codes are equal; the reason is for people.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code alone, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}

/// The code of a ``CodedError`` whose names are strings: a stable identifier, printed as it is.
///
/// A conforming type is a small registry, a struct over `rawValue` with a `static let` for each
/// code it names (as ``WebAuthnError/Code``), so callers compare codes with `==` and a server's
/// or a vector's code that this library does not name still round-trips.
public protocol ErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible where RawValue == String {}

extension ErrorCode {
    /// The code itself.
    public var description: String { rawValue }
}
