import Foundation
import TestSupport
import Testing
import WebAuthn

@Suite struct CryptoCertificateTests {
    private let inWindow = Date(timeIntervalSince1970: 1_748_736_000)  // 2025-06-01T00:00:00Z

    @Test func w3cAttestationRoot() throws {
        let vector = try W3CAttestationRoot.load()
        let der = vector.spec_values.attestation_ca_cert.bytes
        let root = try X509Certificate(derEncoded: der)
        #expect(root.derBytes == der)
        #expect(root.version == 3)
        #expect(root.subjectAttribute("C") == "AA")
        #expect(root.subjectAttribute("O") == "W3C")
        #expect(root.subjectAttribute("OU") == "Authenticator Attestation CA")
        #expect(root.subjectAttribute("CN") == "WebAuthn test vectors")
        #expect(root.subjectAttribute("L") == nil)
        #expect(root.isCertificateAuthority == true)
        #expect(root.notBefore == Date(timeIntervalSince1970: 1_704_067_200))  // 2024-01-01T00:00:00Z
        #expect(root.notAfter == Date(timeIntervalSince1970: 33_260_976_000))  // 3024-01-01T00:00:00Z
        let basicConstraints = try #require(root.extensionValue(oid: "2.5.29.19"))
        #expect(basicConstraints.critical)
        #expect(basicConstraints.value == [0x30, 0x03, 0x01, 0x01, 0xff])
        #expect(try X509Certificate.certificates(pem: vector.derived.attestation_ca_cert_pem) == [root])
        #expect(try root.publicKey(algorithm: .es256).curve == .p256)
        try X509Certificate.verifyChain(leaf: root, intermediates: [], trustAnchors: [root], at: inWindow)
    }

    @Test func w3cPackedAttestationLeaf() throws {
        let leaf = try packedLeaf()
        #expect(leaf.version == 3)
        #expect(leaf.subjectAttribute("OU") == "Authenticator Attestation")
        #expect(leaf.subjectAttribute("CN") == "WebAuthn test vectors")
        #expect(leaf.isCertificateAuthority == false)
        let keyUsage = try #require(leaf.extensionValue(oid: "2.5.29.15"))
        #expect(keyUsage.critical)
        #expect(keyUsage.value == [0x03, 0x02, 0x07, 0x80])  // digitalSignature
        // The W3C vector's attestation certificate carries no id-fido-gen-ce-aaguid extension.
        #expect(leaf.extensionValue(oid: "1.3.6.1.4.1.45724.1.1.4") == nil)
        #expect(try leaf.publicKey(algorithm: .es256).algorithm == .es256)
    }

    @Test func chainVerifiesToTheW3CRootInsideTheValidityWindow() throws {
        let leaf = try packedLeaf()
        let root = try w3cRoot()
        try X509Certificate.verifyChain(leaf: leaf, intermediates: [], trustAnchors: [root], at: inWindow)
        try X509Certificate.verifyChain(leaf: leaf, intermediates: [root], trustAnchors: [root], at: inWindow)
    }

    @Test func chainFailsWithoutTheRightAnchorOrOutsideTheWindow() throws {
        let leaf = try packedLeaf()
        let root = try w3cRoot()
        let untrusted = WebAuthnError(.untrustedAttestationRoot, "")
        #expect(throws: untrusted) {
            try X509Certificate.verifyChain(leaf: leaf, intermediates: [root], trustAnchors: [], at: inWindow)
        }
        let unrelated = try yubiKeyLeaf().certificate
        #expect(throws: untrusted) {
            try X509Certificate.verifyChain(leaf: leaf, intermediates: [root], trustAnchors: [unrelated], at: inWindow)
        }
        for outside in [1_703_980_800, 33_260_976_001] as [TimeInterval] {  // 2023-12-31, after 3024-01-01
            #expect(throws: untrusted) {
                try X509Certificate.verifyChain(
                    leaf: leaf, intermediates: [], trustAnchors: [root], at: Date(timeIntervalSince1970: outside))
            }
        }
    }

    @Test func chainFailureCarriesOpenSSLsReason() throws {
        let leaf = try packedLeaf()
        let root = try w3cRoot()
        let error = #expect(throws: WebAuthnError.self) {
            try X509Certificate.verifyChain(
                leaf: leaf, intermediates: [], trustAnchors: [root], at: Date(timeIntervalSince1970: 1_703_980_800))
        }
        #expect(error?.code == .untrustedAttestationRoot)
        #expect(error?.reason.contains("not yet valid") == true)
    }

    /// py_webauthn's YubiKey capture: its attestation certificate's id-fido-gen-ce-aaguid
    /// extension (WebAuthn L3 §8.2.1) is `OCTET STRING (16) ‖ AAGUID` and matches authData.
    @Test func aaguidExtension() throws {
        let (leaf, aaguid) = try yubiKeyLeaf()
        let value = try #require(leaf.extensionValue(oid: "1.3.6.1.4.1.45724.1.1.4"))
        #expect(!value.critical)
        #expect(value.value == [0x04, 0x10] + aaguid)
        #expect(leaf.isCertificateAuthority == false)
    }

    @Test(
        arguments: [[], [0x30], [0x30, 0x00], [0x30, 0x82, 0xff, 0xff], Array("not a certificate".utf8)] as [[UInt8]])
    func garbageIsMalformed(bytes: [UInt8]) {
        #expect(throws: WebAuthnError(.malformedCertificate, "")) { try X509Certificate(derEncoded: bytes) }
    }

    @Test func everyStrictPrefixAndAnyTrailingByteIsMalformed() throws {
        let der = try w3cRoot().derBytes
        for length in 0..<der.count {
            #expect(throws: WebAuthnError(.malformedCertificate, "")) {
                try X509Certificate(derEncoded: der.prefix(length))
            }
        }
        #expect(throws: WebAuthnError(.malformedCertificate, "")) { try X509Certificate(derEncoded: der + [0]) }
    }

    @Test func pemWithSeveralBlocks() throws {
        let pem = try W3CAttestationRoot.load().derived.attestation_ca_cert_pem
        let leafPEM =
            "-----BEGIN CERTIFICATE-----\n" + (try packedLeaf()).derBytes.base64EncodedPEMBody()
            + "-----END CERTIFICATE-----\n"
        let certificates = try X509Certificate.certificates(pem: "leading text\n" + leafPEM + "\r\n" + pem)
        #expect(certificates == [try packedLeaf(), try w3cRoot()])
    }

    @Test(arguments: [
        "", "no blocks here", "-----BEGIN CERTIFICATE-----\nMIIB\n",
        "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    ])
    func badPEMIsMalformed(pem: String) {
        #expect(throws: WebAuthnError(.malformedCertificate, "")) { try X509Certificate.certificates(pem: pem) }
    }

    private func w3cRoot() throws -> X509Certificate {
        try X509Certificate(derEncoded: W3CAttestationRoot.load().spec_values.attestation_ca_cert.bytes)
    }

    private func packedLeaf() throws -> X509Certificate {
        let x5c = try #require(W3CVector.load("packed-es256.json").registration.derived.attStmt?.x5c)
        try #require(x5c.count == 1)
        return try X509Certificate(derEncoded: x5c[0].bytes)
    }

    /// The attestation certificate of py_webauthn's packed YubiKey capture, taken from the
    /// attestation object's `x5c: [bytes]` by its CBOR header (`63 "x5c" 81 59 len16`) while the
    /// CBOR decoder is written elsewhere; and the AAGUID from its authenticator data.
    private func yubiKeyLeaf() throws -> (certificate: X509Certificate, aaguid: [UInt8]) {
        let vector = try Vectors.load(
            RealWorldVector.self, "realworld/reg-packed-pywebauthn-verify-attestation-from-yubikey-firefox.json")
        let object = try #require(vector.response.response.attestationObject).bytes
        let header: [UInt8] = [0x63, 0x78, 0x35, 0x63, 0x81, 0x59]
        let start = try #require(
            (0...(object.count - header.count)).first(where: { object[$0..<($0 + header.count)].elementsEqual(header) })
        )
        let lengthStart = start + header.count
        let length = Int(object[lengthStart]) << 8 | Int(object[lengthStart + 1])
        let der = object[(lengthStart + 2)..<(lengthStart + 2 + length)]
        let aaguid = try #require(vector.derived.authenticatorData?.aaguid_hex)
        return (try X509Certificate(derEncoded: der), aaguid.bytes)
    }
}

extension [UInt8] {
    /// Base64 in 64-character lines, each ending in a newline (RFC 7468 §2).
    fileprivate func base64EncodedPEMBody() -> String {
        let text = Data(self).base64EncodedString()
        return stride(from: 0, to: text.count, by: 64).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            let end = text.index(start, offsetBy: 64, limitedBy: text.endIndex) ?? text.endIndex
            return String(text[start..<end]) + "\n"
        }.joined()
    }
}
