/// The verification procedure of the `none` attestation statement format (WebAuthn L3 §8.7):
/// the statement is the empty map and vouches for nothing.
enum NoneAttestationVerifier: AttestationStatementVerifier {
    static let format = AttestationFormat.none

    static func verify(_ input: AttestationInput) throws(WebAuthnError) -> AttestationVerdict {
        guard input.statement.mapValue?.isEmpty == true else {
            throw WebAuthnError(.invalidAttestationStatement, "a none attestation statement is empty")
        }
        return AttestationVerdict(type: .none)
    }
}
