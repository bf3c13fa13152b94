public import WebAuthn

/// A relying-party server the suite drives, through the four calls of the FIDO transport binding
/// (FIDO "Server Requirements and Transport Binding Profile", §7 "Transport Binding Profile").
///
/// ``HTTPConformanceTarget`` sends them to a server over HTTP, as the binding or an
/// ``EndpointMap`` lays them out; ``RelyingPartyConformanceTarget`` answers them in process with
/// this package's `RelyingParty`. A test suite may conform its own server's handlers.
public protocol ConformanceTarget: Sendable {
    /// Sends one call and returns the server's answer.
    ///
    /// - Parameters:
    ///   - call: which of the four calls.
    ///   - body: the request body as the binding has it: the options request
    ///     (`ServerPublicKeyCredentialCreationOptionsRequest`,
    ///     `ServerPublicKeyCredentialGetOptionsRequest`) or the credential
    ///     (`ServerPublicKeyCredential`).
    ///   - options: for a result call, the answer of the same ceremony's options call, whose
    ///     values (a session, a transaction ID) a server may need back.
    /// - Returns: the answer; a refusal is an answer, not an error.
    /// - Throws: ``ConformanceError`` when there is no answer the binding allows: no connection, a
    ///   timeout, a redirect, a 5xx, a body that is not JSON.
    func send(_ call: ConformanceCall, _ body: JSONValue, after options: ConformanceAnswer?)
        async throws(ConformanceError) -> ConformanceAnswer

    /// Tests that do not apply to this server, by ID, with the reason: reported as skipped.
    var notApplicable: [String: String] { get }
}

/// The four calls of the transport binding, named by their paths.
public enum ConformanceCall: String, Sendable, Hashable, CaseIterable {
    case attestationOptions = "attestation/options"
    case attestationResult = "attestation/result"
    case assertionOptions = "assertion/options"
    case assertionResult = "assertion/result"

    /// Whether the call asks for options (as opposed to sending a credential).
    public var isOptions: Bool { self == .attestationOptions || self == .assertionOptions }
}

/// A server's answer to one call.
public struct ConformanceAnswer: Sendable, Hashable {
    /// The HTTP status (200 for an in-process target that accepts).
    public var status: Int
    /// Whether the server said yes: a 2xx whose `status` member, where the binding has one, is
    /// `"ok"`.
    public var accepted: Bool
    /// What the server said about a refusal (`errorMessage`, or the start of the body).
    public var message: String
    /// The whole answer.
    public var body: JSONValue
    /// The cookies the answer set (`name=value`), sent back with the same ceremony's result, so
    /// a server that keeps the ceremony in a session finds it.
    public var cookies: [String] = []
    /// For an options call, the options themselves (`PublicKeyCredentialCreationOptions` or
    /// `PublicKeyCredentialRequestOptions` in their JSON form), wherever the answer keeps them.
    public var options: JSONValue?

    public init(status: Int, accepted: Bool, message: String = "", body: JSONValue, options: JSONValue? = nil) {
        self.status = status
        self.accepted = accepted
        self.message = message
        self.body = body
        self.options = options
    }

    /// A binding answer: `{"status": "ok"|"failed", "errorMessage": …}` plus `members`.
    public static func binding(
        accepted: Bool, message: String = "", _ members: [String: JSONValue] = [:]
    ) -> ConformanceAnswer {
        var object = members
        object["status"] = .string(accepted ? "ok" : "failed")
        object["errorMessage"] = .string(message)
        let body = JSONValue.object(object)
        return ConformanceAnswer(
            status: accepted ? 200 : 400, accepted: accepted, message: message, body: body,
            options: members.isEmpty ? nil : body)
    }
}

extension ConformanceTarget {
    /// Tests that do not apply to this server, by ID, with the reason; none by default.
    public var notApplicable: [String: String] { [:] }
}
