import Foundation
import WebAuthn

/// The registration-verification figures of `passkey-bench`: one per attestation statement format,
/// each the whole of ``RelyingParty/verifyRegistration(clientDataJSON:attestationObject:challenge:at:)``
/// (client data, authenticator data, the format's procedure and the chain to its trust anchors)
/// on a vector of that format, beside raw OpenSSL ES256 verification in the same run.
///
/// The W3C set gives one ES256 registration per format; its `android-key` vector breaks §8.4 (a
/// spec finding), so a real phone's is measured instead, and a real TPM's (RS1 over RS256) too.
/// No vector of `android-safetynet` exists to measure. A real-world vector that leaves the trust
/// anchors to the verifier's defaults is anchored at its own root certificate.
struct AttestationBench {
    let vectors: URL
    let seconds: Double
    let rounds: Int
    /// Whether a figure, by name, is measured (`passkey-bench --only`).
    var wants: (String) -> Bool = { _ in true }

    /// The W3C vectors measured, by file name.
    static let w3c = [
        "none-es256", "packed-self-es256", "packed-es256", "fido-u2f-es256", "apple-es256", "tpm-es256",
    ]
    /// The real-world vectors measured, by file name, with a short name for the figure.
    static let realWorld = [
        ("reg-android-key-pywebauthn-verify-attestation-android-key-hardware-authority", "android-key-pixel"),
        ("reg-tpm-pywebauthn-verify-attestation-dell-xps-13", "tpm-rs1-dell"),
    ]

    /// The figures, or none when `vectors` is not the project's vectors folder.
    func figures(progress: (String) -> Void) async throws -> [BenchFigure] {
        guard FileManager.default.fileExists(atPath: vectors.appendingPathComponent("w3c").path) else {
            progress("no W3C vectors under \(vectors.path); per-format verification skipped (--vectors)")
            return []
        }
        let key = try SigningKey.generate(.es256)
        let message = SecureRandom.bytes(37 + 32)
        let signature = try key.signature(for: message)
        let verifier = try PreparedPublicKey(key.publicKey)
        let rawVerify = {
            guard try verifier.isValidSignature(signature, for: message) else { throw BenchFailure.invalid }
        }
        var figures: [BenchFigure] = []
        for registration in try registrations() where wants("rp-verify-registration-\(registration.name)") {
            let label = "verify registration, \(registration.name)"
            progress(label)
            figures += try await BenchFigure.paired(
                "rp-verify-registration-\(registration.name)", label, baseline: "raw-es256-verify",
                baselineLabel: CeremonyBench.labels["raw-es256-verify"] ?? "", target: registration.target,
                rounds: rounds,
                seconds: seconds, registration.verify, against: rawVerify)
        }
        return figures
    }

    /// One registration to verify again and again.
    private struct Registration {
        let name: String
        let verify: () async throws -> Void
        /// Issue 30's target for a format with a certificate path: 0.4 of a raw verification.
        var target: Double?
    }

    /// The least ratio a registration whose statement carries a certificate path must reach
    /// (issue 30): the chain, verified once, no longer counts.
    static let certificatePathTarget = 0.4

    private func registrations() throws -> [Registration] {
        let root = try load(Root.self, "w3c/attestation-root-cert.json")
        let anchors = try X509Certificate.certificates(pem: root.derived.attestation_ca_cert_pem)
        let w3cParty = RelyingParty(
            ids: ["example.org"],
            trustAnchors: Dictionary(
                uniqueKeysWithValues: RelyingParty.supportedAttestationFormats.map { ($0, anchors) }))
        var registrations: [Registration] = []
        for name in Self.w3c {
            let vector = try load(W3CVector.self, "w3c/\(name).json").registration
            registrations.append(
                try registration(
                    name, w3cParty, vector.registration_response_json, challenge: vector.inputs.challenge_b64url,
                    at: Date()))
        }
        for (file, name) in Self.realWorld {
            let vector = try load(RealWorldVector.self, "realworld/\(file).json")
            var party = RelyingParty(ids: [vector.rp.expected_rp_id], origins: [vector.rp.expected_origin])
            for (format, pems) in vector.trust_anchors.by_fmt ?? [:] {
                party.trustAnchors[AttestationFormat(rawValue: format)] = try pems.flatMap {
                    try X509Certificate.certificates(pem: $0)
                }
            }
            var time = try vector.verification_time.map { try Date($0, strategy: .iso8601) } ?? Date()
            // A vector that leaves the anchors to the library's defaults (Google's, the TPM
            // makers'): its own root is the anchor, so its whole chain is verified, at an instant
            // when all of it is valid (some of it has expired since capture).
            let response = vector.response.response
            let verified = try party.verifyRegistration(
                clientDataJSON: response.clientDataJSON.bytes, attestationObject: response.attestationObject.bytes,
                challenge: try Base64URL.decode(vector.rp.expected_challenge_b64url), at: time)
            if !verified.isTrusted, let root = verified.trustPath.last,
                let start = verified.trustPath.map(\.notBefore).max(),
                let end = verified.trustPath.map(\.notAfter).min(), start < end
            {
                party.trustAnchors[verified.format] = [root]
                if !(start..<end).contains(time) {
                    time = start + end.timeIntervalSince(start) / 2
                }
            }
            registrations.append(
                try registration(name, party, vector.response, challenge: vector.rp.expected_challenge_b64url, at: time)
            )
        }
        return registrations
    }

    /// A verification of `response`, checked once before it is measured; with the certificate
    /// path target when that check chained a trust path to an anchor.
    private func registration(
        _ name: String, _ party: RelyingParty, _ response: RegistrationResponseJSON, challenge: String, at time: Date
    ) throws -> Registration {
        let challenge = try Base64URL.decode(challenge)
        let clientData = response.response.clientDataJSON.bytes
        let attestationObject = response.response.attestationObject.bytes
        let verify: () async throws -> Void = {
            _ = try party.verifyRegistration(
                clientDataJSON: clientData, attestationObject: attestationObject, challenge: challenge, at: time)
        }
        let verified = try party.verifyRegistration(
            clientDataJSON: clientData, attestationObject: attestationObject, challenge: challenge, at: time)
        return Registration(
            name: name, verify: verify, target: verified.isTrusted ? Self.certificatePathTarget : nil)
    }

    private func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(contentsOf: vectors.appendingPathComponent(path)))
    }

    /// The parts of a W3C vector the bench reads.
    private struct W3CVector: Decodable {
        struct Registration: Decodable {
            struct Inputs: Decodable {
                let challenge_b64url: String
            }
            let inputs: Inputs
            let registration_response_json: RegistrationResponseJSON
        }
        let registration: Registration
    }

    /// The parts of a real-world vector the bench reads (one expected origin).
    private struct RealWorldVector: Decodable {
        struct RP: Decodable {
            let expected_rp_id: String
            let expected_origin: String
            let expected_challenge_b64url: String
        }
        struct TrustAnchors: Decodable {
            let by_fmt: [String: [String]]?
        }
        let rp: RP
        let verification_time: String?
        let trust_anchors: TrustAnchors
        let response: RegistrationResponseJSON
    }

    /// `attestation-root-cert.json`: the root every W3C attestation chains to.
    private struct Root: Decodable {
        struct Derived: Decodable {
            let attestation_ca_cert_pem: String
        }
        let derived: Derived
    }
}
