import Foundation
import TestSupport
import Testing
import WebAuthn

/// FIDO Metadata Service v3 BLOBs (FIDO MDS 3.0 §3.1): the test BLOB of `Vectors/mds/` (made by
/// `make_blob.py`), verified to its root, and a relying party that takes trust from it.
@Suite struct MetadataBLOBTests {
    static let blob = (try? Vectors.bytes("mds", "blob.jwt")) ?? []
    static func root() throws -> X509Certificate {
        try #require(
            try X509Certificate.certificates(pem: String(decoding: Vectors.bytes("mds", "root.pem"), as: UTF8.self))
                .first)
    }

    static func aaguid(_ text: String) throws -> AAGUID { try AAGUID(uuidString: text) }

    @Test func theTestBLOBVerifiesAndListsItsEntries() throws {
        let metadata = try MetadataBLOB(jwt: Self.blob, root: Self.root())
        #expect(metadata.number == 7)
        #expect(metadata.entries.count == 3)
        let packed = try #require(metadata.entry(for: Self.aaguid("876ca4f5-2071-c3e9-b255-09ef2cdf7ed6")))
        #expect(packed.attestationRootCertificates.count == 1)
        #expect(packed.status == AuthenticatorStatus(rawValue: "FIDO_CERTIFIED_L1"))
        // The latest report by effective date rules, wherever it is in the list.
        let u2f = try #require(metadata.entry(for: Self.aaguid("afb3c2ef-c054-df42-5013-d5c88e79c3c1")))
        #expect(u2f.status == .attestationKeyCompromise)
        #expect(metadata.entry(for: .zero) == nil)
    }

    @Test func aBLOBMustChainToTheGivenRootWhileItsCertificatesAreValid() throws {
        let w3cRoot = try X509Certificate.certificates(
            pem: Vectors.load(W3CAttestationRoot.self, "w3c", "attestation-root-cert.json").derived
                .attestation_ca_cert_pem
        )[0]
        #expect(throws: WebAuthnError(.untrustedMetadata, "")) { try MetadataBLOB(jwt: Self.blob, root: w3cRoot) }
        #expect(throws: WebAuthnError(.untrustedMetadata, "")) {
            try MetadataBLOB(jwt: Self.blob, root: Self.root(), at: Date(timeIntervalSince1970: 2_200_000_000))
        }
    }

    @Test func aTamperedOrMalformedBLOBIsRefused() throws {
        var tampered = Self.blob
        let payloadStart = try #require(tampered.firstIndex(of: UInt8(ascii: "."))) + 10
        tampered[payloadStart] = tampered[payloadStart] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: WebAuthnError(.untrustedMetadata, "")) { try MetadataBLOB(jwt: tampered, root: Self.root()) }
        for text in ["", "a.b", "!!.e30.AAAA", "e30.e30.AAAA"] {
            #expect(throws: WebAuthnError(.malformedMetadata, "")) {
                try MetadataBLOB(jwt: Array(text.utf8), root: Self.root())
            }
        }
    }

    /// A W3C vector's registration, verified by a relying party with the test BLOB and no anchors of its own.
    static func register(_ name: String) throws -> VerifiedRegistration {
        let vector = try Vectors.load(W3CVector.self, "w3c", name)
        let relyingParty = RelyingParty(
            ids: ["example.org"], metadata: try MetadataBLOB(jwt: Self.blob, root: Self.root()))
        return try relyingParty.verifyRegistration(
            clientDataJSON: vector.registration.expected.clientDataJSON_hex.bytes,
            attestationObject: vector.registration.expected.attestationObject_hex.bytes,
            challenge: vector.registration.inputs.challenge_hex.bytes)
    }

    /// §7.1 step 23: the metadata entry's roots are the authenticator's trust anchors; a model
    /// it says is revoked or compromised is refused.
    @Test func aRelyingPartyTakesTrustFromMetadata() throws {
        #expect(try Self.register("packed-es256.json").isTrusted)
        #expect(try !Self.register("packed-rs256.json").isTrusted)  // not listed: no anchors
        #expect(throws: WebAuthnError(.authenticatorCompromised, "")) { try Self.register("tpm-es256.json") }
        #expect(throws: WebAuthnError(.authenticatorCompromised, "")) { try Self.register("fido-u2f-es256.json") }
    }
}
