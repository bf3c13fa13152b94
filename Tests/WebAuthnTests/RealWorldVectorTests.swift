import Foundation
import TestSupport
import Testing
import WebAuthn

/// Every real-world case: our verdict equals the vector's, a failure names the vector's reason,
/// and what we cannot verify (algorithms OpenSSL 3.0 lacks, such as ML-DSA; a format outside
/// ``RelyingParty/supportedAttestationFormats``) answers "unsupported" rather than a verdict.
@Suite struct RealWorldVectorTests {
    static let vectors: [RealWorldVector] = {
        let names = (try? Vectors.names("realworld")) ?? []
        return names.compactMap { try? Vectors.load(RealWorldVector.self, "realworld", $0) }
    }()

    @Test func everyVectorLoads() throws {
        #expect(Self.vectors.count == (try Vectors.names("realworld")).count)
        #expect(Self.vectors.count == 50)
    }

    /// What we answer for a vector we cannot verify: nil when we can.
    static func unsupportedCode(_ vector: RealWorldVector) -> WebAuthnError.Code? {
        if let alg = vector.algorithm?.cose_alg, COSEAlgorithm(rawValue: alg) == nil {
            return .unsupportedAlgorithm
        }
        if let format = vector.attestation_format,
            !RelyingParty.supportedAttestationFormats.contains(AttestationFormat(rawValue: format))
        {
            return .unsupportedAttestationFormat
        }
        return nil
    }

    @Test(arguments: vectors)
    func verdictMatches(_ vector: RealWorldVector) throws {
        let outcome = Result { () throws(WebAuthnError) in try Self.verify(vector) }
        switch (vector.verdict, outcome) {
        case ("pass", .success):
            #expect(Self.unsupportedCode(vector) == nil, "verified a case we claim not to support")
        case ("pass", .failure(let error)):
            #expect(error.code == Self.unsupportedCode(vector), "\(error)")
        case ("fail", .success):
            Issue.record("accepted a response the vector rejects for \(vector.expectedCode ?? "?")")
        case ("fail", .failure(let error)):
            if error.code == .unsupportedAttestationFormat || error.code == .unsupportedAlgorithm {
                #expect(error.code == Self.unsupportedCode(vector), "\(error)")
            } else {
                #expect(error.code.rawValue == vector.expectedCode, "\(error)")
            }
        default:
            Issue.record("unknown verdict \(vector.verdict)")
        }
    }

    static func verify(_ vector: RealWorldVector) throws(WebAuthnError) {
        let relyingParty = try Self.relyingParty(vector)
        let time = Self.time(vector)
        let challenge = try Base64URL.decode(vector.rp.expected_challenge_b64url)
        let response = vector.response.response
        if vector.ceremony == "registration" {
            _ = try relyingParty.verifyRegistration(
                clientDataJSON: response.clientDataJSON.bytes,
                attestationObject: response.attestationObject?.bytes ?? [],
                challenge: challenge, at: time)
        } else {
            let stored = vector.stored_credential!  // every authentication case has one
            _ = try relyingParty.verifyAuthentication(
                credentialID: vector.response.rawId.bytes, clientDataJSON: response.clientDataJSON.bytes,
                authenticatorData: response.authenticatorData?.bytes ?? [], signature: response.signature?.bytes ?? [],
                userHandle: try response.userHandle.map { text throws(WebAuthnError) in try Base64URL.decode(text) },
                challenge: challenge,
                credential: CredentialRecord(
                    id: stored.credential_id_b64url.bytes, publicKey: stored.public_key_cose_b64url.bytes,
                    signCount: stored.sign_count))
        }
    }

    /// The relying party a vector describes: its RP ID, origins, UP/UV rule, algorithms and the
    /// trust anchors it gives per format.
    static func relyingParty(_ vector: RealWorldVector) throws(WebAuthnError) -> RelyingParty {
        var anchors: [AttestationFormat: [X509Certificate]] = [:]
        for (format, pems) in vector.trust_anchors?.by_fmt ?? [:] {
            for pem in pems {
                anchors[AttestationFormat(rawValue: format), default: []] += try X509Certificate.certificates(pem: pem)
            }
        }
        return RelyingParty(
            ids: [vector.rp.expected_rp_id], origins: vector.rp.expected_origin.values,
            requireUserVerification: vector.rp.require_user_verification,
            requireUserPresence: vector.rp.require_user_presence ?? true,
            allowedAlgorithms: vector.rp.supported_pub_key_algs?.compactMap(COSEAlgorithm.init(rawValue:))
                ?? COSEAlgorithm.signatureAlgorithms,
            trustAnchors: anchors)
    }

    /// The vector's verification time (its certificates may have expired since capture), else now.
    static func time(_ vector: RealWorldVector) -> Date {
        vector.verification_time.flatMap { try? Date($0, strategy: .iso8601) } ?? Date()
    }
}
