import Crypto
import FoundationEssentials
import SwiftASN1
import Testing
import WebAuthn
import X509

/// A user imports WebAuthn beside swift-crypto and swift-certificates and names every type
/// unqualified: WebAuthn's `SHA256Digest`, `SecretKey` and `X509Certificate` clash with none of
/// theirs (`SHA256`, `SymmetricKey`, `Certificate`). This file compiling is the proof; the tests
/// check that the two sides agree.
@Suite struct NameClashTests {
    @Test func digestsAgree() {
        let message = Array("SoftPasskey".utf8)
        #expect(SHA256Digest.hash(message) == Array(SHA256.hash(data: message)))
    }

    @Test func keysOfBothLibrariesSealAndOpen() throws {
        let ours = SecretKey.random()
        let theirs = SymmetricKey(data: ours.withUnsafeBytes { Array($0) })
        let sealed = try AESGCM.seal(Array("secret".utf8), using: ours, authenticating: [])
        // WebAuthn's seal is nonce ‖ ciphertext ‖ tag, as AES.GCM.SealedBox.combined.
        let opened = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: theirs)
        #expect(Array(opened) == Array("secret".utf8))
    }

    @Test func certificatesOfBothLibrariesParse() throws {
        let pem = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../Examples/w3c-packed-es256/attestation-root.pem").standardizedFileURL
                .path,
            encoding: .utf8)
        let ours = try #require(try X509Certificate.certificates(pem: pem).first)
        let theirs = try Certificate(pemEncoded: pem)
        var serializer = DER.Serializer()
        try serializer.serialize(theirs)
        #expect(ours.derBytes == serializer.serializedBytes)
    }
}
