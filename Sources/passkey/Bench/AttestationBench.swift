import Foundation
import WebAuthn

/// The registration-verification figures of `passkey bench`: one per attestation statement format,
/// each the whole of ``RelyingParty/verifyRegistration(clientDataJSON:attestationObject:challenge:at:)``
/// (client data, authenticator data, the format's procedure and the chain to its trust anchor) on
/// the format's ES256 vector of the W3C set, beside raw OpenSSL ES256 verification in the same run.
struct AttestationBench {
    let vectors: URL
    let seconds: Double
    let rounds: Int

    /// The W3C vectors measured, by file name: one per format, ES256 throughout.
    static let names = [
        "none-es256", "packed-self-es256", "packed-es256", "fido-u2f-es256", "apple-es256", "android-key-es256",
        "tpm-es256",
    ]

    /// The figures, or none when `vectors` holds no W3C set.
    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        let directory = vectors.appendingPathComponent("w3c")
        guard FileManager.default.fileExists(atPath: directory.path) else {
            progress("no W3C vectors under \(vectors.path); per-format verification skipped (--vectors)")
            return []
        }
        let root = try JSONDecoder().decode(
            Root.self, from: Data(contentsOf: directory.appendingPathComponent("attestation-root-cert.json")))
        let anchors = try X509Certificate.certificates(pem: root.derived.attestation_ca_cert_pem)
        let relyingParty = RelyingParty(
            ids: ["example.org"], origins: ["https://example.org"],
            trustAnchors: Dictionary(
                uniqueKeysWithValues: RelyingParty.supportedAttestationFormats.map { ($0, anchors) }))

        let key = try SigningKey.generate(.es256)
        let message = SecureRandom.bytes(37 + 32)
        let signature = try key.signature(for: message)
        let verifier = try PreparedPublicKey(key.publicKey)
        let rawVerify = {
            guard try verifier.isValidSignature(signature, for: message) else { throw BenchFailure.invalid }
        }

        var figures: [BenchFigure] = []
        for name in Self.names {
            let vector = try JSONDecoder().decode(
                Vector.self, from: Data(contentsOf: directory.appendingPathComponent(name + ".json")))
            guard
                RelyingParty.supportedAttestationFormats.contains(
                    AttestationFormat(rawValue: vector.attestation_format))
            else { continue }
            let registration = vector.registration
            let challenge = try Base64URL.decode(registration.inputs.challenge_b64url)
            let clientData = registration.registration_response_json.response.clientDataJSON.bytes
            let attestationObject = registration.registration_response_json.response.attestationObject.bytes
            let verify: () async throws -> Void = {
                _ = try relyingParty.verifyRegistration(
                    clientDataJSON: clientData, attestationObject: attestationObject, challenge: challenge)
            }
            let label = "verify registration, \(name)"
            progress(label)
            figures += try await BenchFigure.paired(
                "rp-verify-registration-\(name)", label, baseline: "raw-es256-verify",
                baselineLabel: CeremonyBench.labels["raw-es256-verify"] ?? "", target: nil, rounds: rounds,
                seconds: seconds, verify, against: rawVerify)
        }
        return figures
    }

    /// The parts of a W3C vector the bench reads.
    private struct Vector: Decodable {
        struct Registration: Decodable {
            struct Inputs: Decodable {
                let challenge_b64url: String
            }
            let inputs: Inputs
            let registration_response_json: RegistrationResponseJSON
        }
        let attestation_format: String
        let registration: Registration
    }

    /// `attestation-root-cert.json`: the root every W3C attestation chains to.
    private struct Root: Decodable {
        struct Derived: Decodable {
            let attestation_ca_cert_pem: String
        }
        let derived: Derived
    }
}
