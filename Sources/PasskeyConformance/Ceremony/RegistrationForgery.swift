public import WebAuthn

/// A registration the suite forges for a server's creation options: a ``HandmadeCeremony`` with
/// the options' challenge and RP ID, a fresh key of the chosen algorithm, and the attestation
/// format the runner signs under its PKI, each open to one change before it is sent.
public struct RegistrationForgery: Sendable {
    /// The ceremony: flags, counter, client data, AAGUID, key, credential ID.
    public var ceremony: HandmadeCeremony
    /// The attestation format signed over the ceremony; `none` by default.
    public var format = ConformanceFormat.none
    /// The fault the attestation statement carries, if any.
    public var fault: AttestationFault?
    /// The credential's `type` in the JSON sent.
    public var credentialType = "public-key"
    /// `rawId` when it should differ from the credential ID in authenticator data.
    public var claimedRawID: [UInt8]?
    /// The client extension outputs sent.
    public var clientExtensionResults: [String: JSONValue] = [:]
    /// The options the registration answers.
    public let options: PublicKeyCredentialCreationOptionsJSON

    /// A good registration for `options`: user present and verified, not backup eligible,
    /// counter 0, the certified model's AAGUID.
    init(
        options: PublicKeyCredentialCreationOptionsJSON, algorithm: COSEAlgorithm, origin: String, rpID: String
    ) throws(ConformanceError) {
        self.options = options
        do {
            ceremony = try HandmadeCeremony(algorithm)
        } catch {
            throw ConformanceError(.forgery, "a \(algorithm) key: \(error)")
        }
        ceremony.rpID = rpID
        ceremony.origin = origin
        ceremony.challenge = options.challenge.bytes
        ceremony.flags = [.userPresent, .userVerified]
        ceremony.aaguid = ConformanceAuthenticator.certified.aaguid
    }

    /// Skips the test unless the options require user verification: a server that does not
    /// require it may accept what the test sends.
    public func requireUserVerificationAsked() throws(ConformanceError) {
        guard options.authenticatorSelection?.userVerification == .required else {
            throw ConformanceError(.skipped, "the server's creation options do not require user verification")
        }
    }

    /// The credential as `PublicKeyCredential.toJSON()` gives it, with the binding's
    /// `getClientExtensionResults` beside L3's `clientExtensionResults`.
    func credential(_ pki: ConformancePKI) throws(ConformanceError) -> JSONValue {
        var ceremony = ceremony
        do {
            if ceremony.rawAttestationObject == nil, format != .none {
                let (format, statement) = try pki.attest(
                    format, authenticatorData: ceremony.authenticatorData(),
                    clientDataHash: SHA256Digest.hash(ceremony.clientData(.create)), credentialKey: ceremony.key,
                    fault: fault)
                ceremony.format = format
                ceremony.statement = statement
            }
            let id = Base64URL(claimedRawID ?? ceremony.credentialID).string
            return .object([
                "id": .string(id), "rawId": .string(id), "type": .string(credentialType),
                "response": .object([
                    "clientDataJSON": .string(Base64URL(ceremony.clientData(.create)).string),
                    "attestationObject": .string(Base64URL(try ceremony.attestationObject()).string),
                    "transports": .array([.string("usb")]),
                ]),
                "getClientExtensionResults": .object(clientExtensionResults),
                "clientExtensionResults": .object(clientExtensionResults),
            ])
        } catch let error as ConformanceError {
            throw error
        } catch let error as WebAuthnError {
            throw ConformanceError(.forgery, "the \(format.rawValue) attestation: \(error.reason)")
        } catch {
            throw ConformanceError(.forgery, "the \(format.rawValue) attestation: \(error)")
        }
    }
}
