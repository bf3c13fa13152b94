import TestSupport
import Testing
import WebAuthn

/// A valid ceremony a test builds whole and then breaks (STYLE §7's negatives: start from a valid
/// builder, change one thing, expect one error code). One helper for every such test of this
/// target, so each test reads as the one thing it changes.
protocol ValidCeremony {
    init() throws
    /// Runs the relying party's verification the test is about.
    func verify() throws
}

extension ValidCeremony {
    /// Expects the verification of a valid ceremony with `change` made to fail with `code`.
    static func expect(
        _ code: WebAuthnError.Code, sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout Self) throws -> Void
    ) throws {
        var ceremony = try Self()
        try change(&ceremony)
        #expect(throws: WebAuthnError(code, ""), sourceLocation: sourceLocation) { try ceremony.verify() }
    }
}

/// A valid registration a test builds whole: an attestation statement with its ceremony.
protocol ValidRegistration: ValidCeremony {
    func register() throws -> VerifiedRegistration
}

extension ValidRegistration {
    func verify() throws {
        _ = try register()
    }

    /// Expects a valid registration to verify as `type` and chain to its anchor.
    static func expectTrusted(_ type: AttestationType, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let registration = try Self().register()
        #expect(registration.attestationType == type, sourceLocation: sourceLocation)
        #expect(registration.isTrusted, sourceLocation: sourceLocation)
    }
}

/// A hand-made ceremony's registration, at the relying party of `example.org`.
extension HandmadeCeremony: ValidCeremony {
    init() throws {
        try self.init(.es256)
    }

    func verify() throws {
        _ = try register()
    }
}

/// A hand-made ceremony's assertion, at the relying party of `example.org`; its members are the
/// ceremony's.
@dynamicMemberLookup struct HandmadeAssertion: ValidCeremony {
    var ceremony: HandmadeCeremony

    init() throws {
        ceremony = try HandmadeCeremony()
    }

    subscript<Value>(dynamicMember member: KeyPath<HandmadeCeremony, Value>) -> Value {
        ceremony[keyPath: member]
    }

    subscript<Value>(dynamicMember member: WritableKeyPath<HandmadeCeremony, Value>) -> Value {
        get { ceremony[keyPath: member] }
        set { ceremony[keyPath: member] = newValue }
    }

    func verify() throws {
        _ = try ceremony.assert()
    }
}
