import Foundation
import TestSupport
import Testing
import WebAuthn

/// Every W3C WebAuthn L3 test vector: decode every byte, re-encode what an authenticator builds,
/// and verify both ceremonies (WebAuthn L3 §7.1, §7.2).
@Suite struct W3CVectorTests {
    static let vectors: [W3CVector] = ((try? W3CVector.names()) ?? []).compactMap { try? W3CVector.load($0) }

    /// The formats this library verifies; the others must answer "unsupported".
    static let supportedFormats = Set(RelyingParty.supportedAttestationFormats.map(\.rawValue))

    /// Vectors whose registration no conforming verifier accepts, and why. The android-key vector's
    /// key description has empty authorization lists: no `origin` of KM_ORIGIN_GENERATED nor
    /// `purpose` KM_PURPOSE_SIGN, which §8.4 requires (py_webauthn refuses it likewise); its
    /// signature, key and challenge verify, since those steps run first.
    static let specFindings: [String: WebAuthnError.Code] = [
        "w3c-android-key-es256": .attestationCertificateRequirements
    ]

    @Test func everyVectorLoads() throws {
        #expect(Self.vectors.count == 15)
    }

    @Test(arguments: vectors)
    func decodesRegistration(_ vector: W3CVector) throws {
        let inputs = vector.registration.inputs
        let expected = vector.registration.expected
        let attestation = try AttestationObject(bytes: expected.attestationObject_hex.bytes)
        #expect(attestation.format.rawValue == vector.attestation_format)
        let authData = attestation.authenticatorData
        #expect(authData.bytes == expected.authenticatorData_hex.bytes)
        #expect(authData.rpIDHash == SHA256Digest.hash(Array(inputs.rp_id.utf8)))
        #expect(authData.flags.rawValue == inputs.flags_hex.bytes.first)
        #expect(authData.signCount == inputs.signCount)
        let credential = try #require(authData.attestedCredentialData)
        #expect(credential.credentialID == inputs.credential_id_hex.bytes)
        #expect(credential.aaguid.bytes == (inputs.aaguid_hex?.bytes ?? AAGUID.zero.bytes))
        #expect(credential.credentialPublicKey == expected.credentialPublicKey_cose_hex.bytes)

        let clientData = try CollectedClientData(bytes: expected.clientDataJSON_hex.bytes)
        #expect(clientData.type == .create)
        #expect(clientData.challenge == Base64URL.encode(inputs.challenge_hex.bytes))
        #expect(clientData.origin == inputs.origin)
    }

    @Test(arguments: vectors)
    func decodesAuthentication(_ vector: W3CVector) throws {
        let authentication = try #require(vector.authentication)
        let authData = try AuthenticatorData(bytes: authentication.expected.authenticatorData_hex.bytes)
        #expect(authData.rpIDHash == SHA256Digest.hash(Array(authentication.inputs.rp_id.utf8)))
        #expect(authData.flags.rawValue == authentication.inputs.flags_hex.bytes.first)
        #expect(authData.signCount == authentication.inputs.signCount)
        #expect(authData.attestedCredentialData == nil)
        let clientData = try CollectedClientData(bytes: authentication.expected.clientDataJSON_hex.bytes)
        #expect(clientData.type == .get)
        #expect(clientData.challenge == Base64URL.encode(authentication.inputs.challenge_hex.bytes))
    }

    /// The COSE key, the authenticator data and (for `none` and `packed`) the attestation object,
    /// rebuilt from the vector's inputs, are byte-identical to the vector's.
    @Test(arguments: vectors)
    func reencodesByteExact(_ vector: W3CVector) throws {
        let inputs = vector.registration.inputs
        let expected = vector.registration.expected
        let key = try COSEKey(bytes: expected.credentialPublicKey_cose_hex.bytes)
        #expect(key.bytes == expected.credentialPublicKey_cose_hex.bytes)

        let rebuilt = AuthenticatorData(
            rpIDHash: SHA256Digest.hash(Array(inputs.rp_id.utf8)),
            flags: AuthenticatorFlags(rawValue: inputs.flags_hex.bytes[0]),
            signCount: inputs.signCount,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: inputs.aaguid_hex.map { try AAGUID(bytes: $0.bytes) } ?? .zero,
                credentialID: inputs.credential_id_hex.bytes, publicKey: key))
        #expect(rebuilt.bytes == expected.authenticatorData_hex.bytes)

        guard Self.supportedFormats.contains(vector.attestation_format) else { return }
        let parsed = try AttestationObject(bytes: expected.attestationObject_hex.bytes)
        let statement =
            vector.attestation_format == "packed"
            ? try PackedAttestationStatement(cbor: parsed.statement).cbor : parsed.statement
        let object = AttestationObject(format: parsed.format, statement: statement, authenticatorData: rebuilt)
        #expect(object.bytes == expected.attestationObject_hex.bytes)

        if let authentication = vector.authentication {
            let assertion = AuthenticatorData(
                rpIDHash: SHA256Digest.hash(Array(authentication.inputs.rp_id.utf8)),
                flags: AuthenticatorFlags(rawValue: authentication.inputs.flags_hex.bytes[0]),
                signCount: authentication.inputs.signCount)
            #expect(assertion.bytes == authentication.expected.authenticatorData_hex.bytes)
        }
    }

    /// The credential private key yields the vector's public key, and a signature made with it now
    /// verifies (OpenSSL has no RFC 6979, so signatures are verified, not compared).
    @Test(arguments: vectors.filter(\.hasSigningKey))
    func privateKeyReproducesPublicKey(_ vector: W3CVector) throws {
        let expected = vector.registration.expected
        let publicKey = try COSEKey(bytes: expected.credentialPublicKey_cose_hex.bytes)
        let privateKey = try #require(vector.registration.inputs.credential_private_key_hex)
        let key = try SigningKey(rawRepresentation: privateKey.bytes, algorithm: #require(publicKey.algorithm))
        #expect(key.publicKey == publicKey)
        let message = Array("signed by the vector's key".utf8)
        #expect(try publicKey.isValidSignature(key.signature(for: message), for: message))
    }

    @Test(arguments: vectors)
    func verifiesBothCeremonies(_ vector: W3CVector) throws {
        let root = try W3CAttestationRoot.load()
        let relyingParty = RelyingParty(
            ids: ["example.org"], origins: ["https://example.org"], allowsCrossOrigin: true,
            topOrigins: ["https://example.com"],
            trustAnchors: Dictionary(
                uniqueKeysWithValues: try RelyingParty.supportedAttestationFormats.map {
                    ($0, try X509Certificate.certificates(pem: root.derived.attestation_ca_cert_pem))
                }))
        let registration = vector.registration
        let verify = {
            try relyingParty.verifyRegistration(
                clientDataJSON: registration.expected.clientDataJSON_hex.bytes,
                attestationObject: registration.expected.attestationObject_hex.bytes,
                challenge: registration.inputs.challenge_hex.bytes)
        }
        let record: CredentialRecord
        if let finding = Self.specFindings[vector.id] {
            #expect(throws: WebAuthnError(finding, "")) { try verify() }
            record = CredentialRecord(
                id: registration.inputs.credential_id_hex.bytes,
                publicKey: registration.expected.credentialPublicKey_cose_hex.bytes)
        } else if Self.supportedFormats.contains(vector.attestation_format) {
            let verified = try verify()
            #expect(verified.credentialID == registration.inputs.credential_id_hex.bytes)
            #expect(verified.format.rawValue == vector.attestation_format)
            #expect(verified.isTrusted == !verified.trustPath.isEmpty)
            #expect(verified.attestationType != .self || verified.trustPath.isEmpty)
            record = verified.record()
        } else {
            #expect(throws: WebAuthnError(.unsupportedAttestationFormat, "")) { try verify() }
            record = CredentialRecord(
                id: registration.inputs.credential_id_hex.bytes,
                publicKey: registration.expected.credentialPublicKey_cose_hex.bytes)
        }

        let authentication = try #require(vector.authentication)
        let verified = try relyingParty.verifyAuthentication(
            credentialID: authentication.inputs.credential_id_hex.bytes,
            clientDataJSON: authentication.expected.clientDataJSON_hex.bytes,
            authenticatorData: authentication.expected.authenticatorData_hex.bytes,
            signature: authentication.expected.signature_hex.bytes, userHandle: nil,
            challenge: authentication.inputs.challenge_hex.bytes, credential: record)
        #expect(verified.signCount == authentication.inputs.signCount)
    }
}

extension W3CVector {
    /// Whether the vector prints a credential private key of an algorithm ``SigningKey`` signs with.
    var hasSigningKey: Bool {
        let key = try? COSEKey(bytes: registration.expected.credentialPublicKey_cose_hex.bytes)
        return registration.inputs.credential_private_key_hex != nil
            && [.es256, .eddsa].contains(key?.algorithm)
    }
}
