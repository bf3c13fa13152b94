import Foundation
import TestSupport
import Testing

@testable import WebAuthn

/// A relying party parses each trust path once and verifies each chain once
/// (``AttestationTrust``): its verdicts are those of a relying party that has seen nothing
/// before, for every registration vector (the refusals too: a wrong anchor, an expired chain, a
/// bad statement signature), at every instant around the chain's validity; the tables are
/// bounded; and changing the anchors forgets what was verified against the old ones.
@Suite struct AttestationTrustTests {
    /// One registration and the relying party that verifies it.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let relyingParty: @Sendable () throws -> RelyingParty
        let clientDataJSON: [UInt8]
        let attestationObject: [UInt8]
        let challenge: [UInt8]
        let time: Date

        var testDescription: String { name }

        func outcome(_ relyingParty: RelyingParty, at instant: Date? = nil) -> Outcome {
            do {
                let verified = try relyingParty.verifyRegistration(
                    clientDataJSON: clientDataJSON, attestationObject: attestationObject, challenge: challenge,
                    at: instant ?? time)
                return .accepted(verified)
            } catch {
                return .refused(error.code)
            }
        }
    }

    /// What a verification answers, compared whole.
    enum Outcome: Equatable {
        case accepted(VerifiedRegistration)
        case refused(WebAuthnError.Code)

        var verified: VerifiedRegistration? {
            if case .accepted(let verified) = self { verified } else { nil }
        }
    }

    static let root: [X509Certificate] = {
        let pem = (try? W3CAttestationRoot.load())?.derived.attestation_ca_cert_pem ?? ""
        return (try? X509Certificate.certificates(pem: pem)) ?? []
    }()

    /// Every W3C registration against the W3C root; every real-world registration as its vector
    /// says, and, when it verifies without anchors, again with its own last certificate as the
    /// only anchor, so that its real chain (a phone's, a TPM's, a YubiKey's) is verified, at the
    /// vector's time and, since those certificates have expired, now.
    static let cases: [Case] = {
        var cases: [Case] = []
        for vector in ((try? W3CVector.names()) ?? []).compactMap({ try? W3CVector.load($0) }) {
            let registration = vector.registration
            cases.append(
                Case(
                    name: String(vector.id.dropFirst("w3c-".count)),
                    relyingParty: {
                        RelyingParty(
                            ids: ["example.org"], origins: ["https://example.org"], allowsCrossOrigin: true,
                            topOrigins: ["https://example.com"],
                            trustAnchors: Dictionary(
                                uniqueKeysWithValues: RelyingParty.supportedAttestationFormats.map { ($0, root) }))
                    },
                    clientDataJSON: registration.expected.clientDataJSON_hex.bytes,
                    attestationObject: registration.expected.attestationObject_hex.bytes,
                    challenge: registration.inputs.challenge_hex.bytes, time: Date()))
        }
        for vector in RealWorldVectorTests.vectors where vector.ceremony == "registration" {
            let response = vector.response.response
            let plain = Case(
                name: "realworld \(vector.id)", relyingParty: { try RealWorldVectorTests.relyingParty(vector) },
                clientDataJSON: response.clientDataJSON.bytes,
                attestationObject: response.attestationObject?.bytes ?? [],
                challenge: (try? Base64URL.decode(vector.rp.expected_challenge_b64url)) ?? [],
                time: RealWorldVectorTests.time(vector))
            cases.append(plain)
            guard let party = try? plain.relyingParty(), let verified = plain.outcome(party).verified,
                let anchor = verified.trustPath.last, !verified.isTrusted
            else {
                continue
            }
            for (suffix, time) in [("its own last certificate", plain.time), ("… now", Date())] {
                cases.append(
                    Case(
                        name: "realworld \(vector.id) anchored at \(suffix)",
                        relyingParty: {
                            var party = try RealWorldVectorTests.relyingParty(vector)
                            party.trustAnchors[verified.format] = [anchor]
                            return party
                        },
                        clientDataJSON: plain.clientDataJSON, attestationObject: plain.attestationObject,
                        challenge: plain.challenge, time: time))
            }
        }
        return cases
    }()

    @Test func theCasesCoverChainsThatVerifyAndChainsThatDoNot() throws {
        var trusted = 0
        var untrusted = 0
        for testCase in Self.cases {
            switch testCase.outcome(try testCase.relyingParty()) {
            case .accepted(let verified) where verified.isTrusted: trusted += 1
            case .refused(.untrustedAttestationRoot): untrusted += 1
            default: continue
            }
        }
        #expect(trusted >= 12)  // W3C packed, fido-u2f, apple, tpm; a phone's, TPMs', YubiKeys'
        #expect(untrusted >= 2)  // a wrong anchor; chains expired since capture
    }

    @Test(arguments: cases)
    func aRelyingPartyThatHasVerifiedBeforeAnswersAsAFreshOne(_ testCase: Case) throws {
        let warm = try testCase.relyingParty()
        let cold = testCase.outcome(try testCase.relyingParty())
        for _ in 0..<3 {
            #expect(testCase.outcome(warm) == cold)
        }
        guard let verified = cold.verified, verified.isTrusted else {
            #expect(warm.attestationTrust.count == 0, "only chains that verify are kept")
            return
        }
        #expect(warm.attestationTrust.count == 1)
        // Around the validity of the path's certificates, cached or not, the same answer; after
        // it, a refusal although the chain is in the table.
        let start = try #require(verified.trustPath.map(\.notBefore).max())
        let end = try #require(verified.trustPath.map(\.notAfter).min())
        for instant in [start - 1, start, start + 0.5, end - 1, end - 0.5, end, end + 1] {
            let fresh = testCase.outcome(try testCase.relyingParty(), at: instant)
            #expect(testCase.outcome(warm, at: instant) == fresh, "at \(instant)")
        }
        #expect(testCase.outcome(warm, at: end + 1) == .refused(.untrustedAttestationRoot))
        #expect(testCase.outcome(warm, at: start - 1) == .refused(.untrustedAttestationRoot))
        #expect(warm.attestationTrust.count == 1)
    }

    /// The statement's own checks run every time: a chain in the table does not vouch for a
    /// signature over other client data.
    @Test func aCachedChainDoesNotSkipTheStatementSignature() throws {
        let testCase = try #require(Self.cases.first { $0.name == "packed-es256" })
        let warm = try testCase.relyingParty()
        #expect(testCase.outcome(warm).verified?.isTrusted == true)
        var clientData = testCase.clientDataJSON
        #expect(clientData.popLast() == UInt8(ascii: "}"))
        clientData += Array(#","other":"member"}"#.utf8)  // valid client data, another hash
        let other = Case(
            name: "other client data", relyingParty: testCase.relyingParty, clientDataJSON: clientData,
            attestationObject: testCase.attestationObject, challenge: testCase.challenge, time: testCase.time)
        #expect(other.outcome(warm) == .refused(.badAttestationSignature))
        #expect(other.outcome(try testCase.relyingParty()) == .refused(.badAttestationSignature))
    }

    @Test func changingTheAnchorsForgetsTheChainsVerifiedAgainstTheOldOnes() throws {
        let testCase = try #require(Self.cases.first { $0.name == "packed-es256" })
        var relyingParty = try testCase.relyingParty()
        #expect(testCase.outcome(relyingParty).verified?.isTrusted == true)
        let unrelated = try #require(
            RealWorldVectorTests.vectors.first { $0.id.contains("root-cert-invalid") }?.trust_anchors?.by_fmt?[
                "packed"]?
                .first)
        relyingParty.trustAnchors[.packed] = try X509Certificate.certificates(pem: unrelated)
        #expect(relyingParty.attestationTrust.count == 0)
        #expect(testCase.outcome(relyingParty) == .refused(.untrustedAttestationRoot))
        relyingParty.trustAnchors[.packed] = nil
        #expect(testCase.outcome(relyingParty).verified?.isTrusted == false)
        relyingParty.trustAnchors[.packed] = Self.root
        #expect(testCase.outcome(relyingParty).verified?.isTrusted == true)
    }

    /// Given other anchors for the same set than it prepared, the table parses them and forgets
    /// every chain, though the relying party replaces it on any change before that can happen.
    @Test func otherAnchorsForTheSameSetAreNeverAnsweredFromTheTable() throws {
        let trust = AttestationTrust()
        let path = TrustPath(try trustPath("packed-es256"))
        let anchorSet = AttestationTrust.AnchorSet(format: .packed, metadataEntry: nil)
        try trust.verify(path, anchors: Self.root, from: anchorSet, at: Date())
        #expect(trust.count == 1)
        #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) {
            try trust.verify(path, anchors: [try self.trustPath("apple-es256")[0]], from: anchorSet, at: Date())
        }
        #expect(trust.count == 0)
    }

    @Test func theTablesAreBounded() throws {
        let trust = AttestationTrust(capacity: 2)
        let paths = try ["packed-es256", "fido-u2f-es256", "tpm-es256"].map(trustPath)
        let anchorSet = AttestationTrust.AnchorSet(format: .packed, metadataEntry: nil)
        for _ in 0..<2 {
            for path in paths {
                try trust.verify(TrustPath(path), anchors: Self.root, from: anchorSet, at: Date())
                #expect(trust.count <= 2)
                let parsed = try trust.certificates(path.map(\.derBytes)) { _, error in error }
                #expect(parsed.certificates == path)
                #expect(parsed.digest == TrustPath(path).digest)
                #expect(trust.parsedCount <= 2)
            }
        }
        #expect(trust.count == 2)
        #expect(trust.parsedCount == 2)
    }

    /// The bound's eviction order holds exactly the table's keys: replacing a value keeps its
    /// key's place, the oldest key leaves first, and forgetting everything starts a new order.
    @Test func aBoundedTableEvictsTheOldestKeyFirst() {
        var table = BoundedTable<String, Int>(capacity: 2)
        table.insert(1, for: "a")
        table.insert(2, for: "b")
        table.insert(3, for: "a")
        #expect(table.count == 2)
        #expect(table["a"] == 3)
        table.insert(4, for: "c")
        #expect(table["a"] == nil)
        #expect(table["b"] == 2)
        #expect(table["c"] == 4)
        table.insert(5, for: "d")
        #expect(table["b"] == nil)
        #expect(table.count == 2)
        table.removeAll()
        #expect(table.count == 0)
        table.insert(6, for: "e")
        table.insert(7, for: "f")
        table.insert(8, for: "g")
        #expect(table["e"] == nil)
        #expect([table["f"], table["g"]] == [7, 8])
    }

    @Test func aPathThatDoesNotParseIsRefusedEveryTimeAndNeverKept() throws {
        let trust = AttestationTrust()
        let der = try trustPath("packed-es256")[0].derBytes
        for _ in 0..<2 {
            #expect(throws: WebAuthnError(.invalidAttestationStatement, "")) {
                _ = try trust.certificates([der, Array(der.dropLast())]) { index, error in
                    error.recoded(.invalidAttestationStatement, "x5c[\(index)]")
                }
            }
        }
        #expect(trust.parsedCount == 0)
    }

    private func trustPath(_ name: String) throws -> [X509Certificate] {
        let testCase = try #require(Self.cases.first { $0.name == name })
        return try #require(testCase.outcome(try testCase.relyingParty()).verified?.trustPath)
    }
}
