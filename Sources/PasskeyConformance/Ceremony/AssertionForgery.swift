public import WebAuthn

/// An assertion the suite forges for a server's request options, with the key of an earlier
/// ``Registration``: the options' challenge, the registration's flags, its counter advanced by
/// one (0 stays 0), and its user handle, each open to one change before it is sent.
public struct AssertionForgery: Sendable {
    /// The ceremony: flags, counter, client data, credential ID and key.
    public var ceremony: HandmadeCeremony
    /// The `userHandle` sent; `nil` leaves it out.
    public var userHandle: [UInt8]?
    /// Whether one bit of the signature is flipped after signing.
    public var corruptsSignature = false
    /// The credential's `type` in the JSON sent.
    public var credentialType = "public-key"
    /// The options the assertion answers.
    public let options: PublicKeyCredentialRequestOptionsJSON

    init(registration: Registration, options: PublicKeyCredentialRequestOptionsJSON) {
        self.options = options
        ceremony = registration.ceremony
        ceremony.challenge = options.challenge.bytes
        ceremony.claimedChallenge = nil
        ceremony.claimedType = nil
        ceremony.rawClientData = nil
        ceremony.claimedRPID = nil
        if let rpID = options.rpId { ceremony.rpID = rpID }
        if ceremony.signCount > 0 { ceremony.signCount += 1 }
        userHandle = registration.userHandle
    }

    /// Skips the test unless the options require user verification: a server that does not
    /// require it may accept what the test sends.
    public func requireUserVerificationAsked() throws(ConformanceError) {
        guard options.userVerification == .required else {
            throw ConformanceError(.skipped, "the server's request options do not require user verification")
        }
    }

    /// The assertion as `PublicKeyCredential.toJSON()` gives it.
    func credential() throws(ConformanceError) -> JSONValue {
        let parts: (clientData: [UInt8], authenticatorData: [UInt8], signature: [UInt8])
        do {
            parts = try ceremony.assertion()
        } catch {
            throw ConformanceError(.forgery, "the assertion: \(error)")
        }
        var signature = parts.signature
        if corruptsSignature, let last = signature.indices.last { signature[last] ^= 0x01 }
        let id = Base64URL(ceremony.credentialID).string
        var response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL(parts.clientData).string),
            "authenticatorData": .string(Base64URL(parts.authenticatorData).string),
            "signature": .string(Base64URL(signature).string),
        ]
        response["userHandle"] = userHandle.map { .string(Base64URL($0).string) }
        return .object([
            "id": .string(id), "rawId": .string(id), "type": .string(credentialType), "response": .object(response),
            "getClientExtensionResults": .object([:]), "clientExtensionResults": .object([:]),
        ])
    }
}
