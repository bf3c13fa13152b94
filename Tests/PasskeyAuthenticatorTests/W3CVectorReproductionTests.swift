import TestSupport
import Testing
import WebAuthn

@testable import PasskeyAuthenticator

/// The W3C L3 vectors `none-es256` and `packed-self-es256` made again through the software
/// authenticator from their inputs (key, credential ID, AAGUID, flags, client data): the
/// authenticator data must come out byte for byte and the signatures must verify under the
/// vector's public key; in seeded mode, which signs with RFC 6979 as the vectors were made, the
/// attestation object and the assertion signature come out byte for byte too.
@Suite struct W3CVectorReproductionTests {
    @Test(arguments: ["none-es256.json", "packed-self-es256.json"], [false, true])
    func reproducedThroughTheAuthenticator(_ name: String, seeded: Bool) async throws {
        let vector = try W3CVector.load(name)
        let inputs = vector.registration.inputs
        let authentication = try #require(vector.authentication)
        let registrationFlags = AuthenticatorFlags(rawValue: inputs.flags_hex.bytes[0])
        let assertionFlags = AuthenticatorFlags(rawValue: authentication.inputs.flags_hex.bytes[0])
        let key = try SigningKey(
            rawRepresentation: try #require(inputs.credential_private_key_hex).bytes, algorithm: .es256)
        let credentialID = inputs.credential_id_hex.bytes

        // A profile built as a library user would: the vector's authenticator model and flags.
        let profile = AuthenticatorProfile(
            name: "w3c-vector", aaguid: try AAGUID(bytes: try #require(inputs.aaguid_hex).bytes), attachment: .platform,
            transports: [.internal], algorithms: [.es256], alwaysDiscoverable: true, alwaysVerifiesUser: false,
            backedUp: registrationFlags.contains(.backupState), countsSignatures: false,
            selfAttests: vector.attestation_format == "packed")
        let store = InMemoryCredentialStore()
        var authenticator = SoftwareAuthenticator(
            store: store, profile: profile,
            seed: seeded ? try Seed(hex: "000102030405060708090a0b0c0d0e0f") : nil)
        authenticator.keyMaterialForTesting = { _ in
            KeyMaterial(
                credentialID: credentialID, privateKey: key, prfSecretWithUV: .random(), prfSecretWithoutUV: .random())
        }

        let registrationClientData = vector.registration.expected.clientDataJSON_hex.bytes
        let made = try await authenticator.makeCredential(
            MakeCredentialRequest(
                clientDataHash: SHA256Digest.hash(registrationClientData), rpID: inputs.rp_id,
                user: .init(id: [1], name: "vector", displayName: "Vector"), algorithms: [-7],
                userVerification: registrationFlags.contains(.userVerified),
                attestationFormatsPreference: [AttestationFormat(rawValue: vector.attestation_format)]))
        #expect(
            made.attestationObject.authenticatorData.bytes == vector.registration.expected.authenticatorData_hex.bytes)
        let relyingParty = RelyingParty(id: inputs.rp_id)
        let registered = try relyingParty.verifyRegistration(
            clientDataJSON: registrationClientData, attestationObject: made.attestationObject.bytes,
            challenge: try CollectedClientData(bytes: registrationClientData).challengeBytes)
        #expect(registered.format.rawValue == vector.attestation_format)
        if seeded {
            #expect(made.attestationObject.bytes == vector.registration.expected.attestationObject_hex.bytes)
        }

        // The vector's assertion may report BS differently from its registration.
        var stored = try #require(await store.credential(id: credentialID))
        stored.backupState = assertionFlags.contains(.backupState)
        try await store.update(stored)

        let assertionClientData = authentication.expected.clientDataJSON_hex.bytes
        let asserted = try await authenticator.getAssertion(
            GetAssertionRequest(
                rpID: inputs.rp_id, clientDataHash: SHA256Digest.hash(assertionClientData), allowList: [credentialID],
                userVerification: assertionFlags.contains(.userVerified)))
        #expect(asserted.authenticatorData.bytes == authentication.expected.authenticatorData_hex.bytes)
        _ = try relyingParty.verifyAuthentication(
            credentialID: asserted.credentialID, clientDataJSON: assertionClientData,
            authenticatorData: asserted.authenticatorData.bytes, signature: asserted.signature,
            userHandle: asserted.userHandle,
            challenge: try CollectedClientData(bytes: assertionClientData).challengeBytes,
            credential: registered.record())
        if seeded {
            #expect(asserted.signature == authentication.expected.signature_hex.bytes)
        }
    }
}

extension CollectedClientData {
    /// The challenge as bytes.
    fileprivate var challengeBytes: [UInt8] {
        get throws { try Base64URL.decode(challenge) }
    }
}
