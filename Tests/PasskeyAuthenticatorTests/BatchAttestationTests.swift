import Crypto
import Foundation
import PasskeyAuthenticator
import SwiftASN1
import TestSupport
import Testing
import WebAuthn
import X509

/// Batch attestation (WebAuthn L3 §8.2 with `x5c`): the store's CA, made once, issues a batch
/// certificate per AAGUID that meets §8.2.1; a relying party trusting the CA verifies the chain.
/// The `cdp` profile attests that way, counts from 1 and names credentials by their key's hash.
@Suite struct BatchAttestationTests {
    @Test func theCDPProfileAttestsWithAChainToTheStoresRoot() async throws {
        let store = InMemoryCredentialStore()
        let root = try X509Certificate(derEncoded: await store.attestationAuthority().certificate)
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: store, profile: .cdp),
            relyingParty: RelyingParty(ids: ["example.com"], trustAnchors: [.packed: [root]]))
        let (_, verified) = try await ceremony.register(
            Ceremony.creationOptions(algorithms: [.es256], attestation: .direct))
        #expect(verified.format == .packed)
        #expect(verified.attestationType == .basic)
        #expect(verified.isTrusted)
        #expect(verified.aaguid == AuthenticatorProfile.cdp.aaguid)
        #expect(verified.trustPath.count == 2)
        #expect(verified.signCount == 1, "Chrome's virtual authenticator counts the registration")
        #expect(verified.credentialID == SHA256Digest.hash(verified.credentialPublicKey))
        let (_, assertion) = try await ceremony.authenticate(verified.record())
        #expect(assertion.signCount == 2)
    }

    @Test func theBatchCertificateMeetsThePackedRequirements() async throws {
        let store = InMemoryCredentialStore()
        let batch = try await store.batchAttestation(aaguid: AuthenticatorProfile.cdp.aaguid)
        let leaf = try Certificate(derEncoded: batch.certificates[0])
        #expect(leaf.version == .v3)
        let subject = leaf.subject.description
        for part in ["C=US", "O=SoftPasskey", "OU=Authenticator Attestation", "CN="] {
            #expect(subject.contains(part), "\(subject)")
        }
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        let aaguid = try #require(leaf.extensions.first { $0.oid == [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4] })
        #expect(!aaguid.critical)
        #expect(Array(aaguid.value) == [0x04, 0x10] + AuthenticatorProfile.cdp.aaguid.bytes)
        let root = try Certificate(derEncoded: batch.certificates[1])
        #expect(leaf.issuer == root.subject)
        #expect(root.publicKey.isValidSignature(leaf.signature, for: leaf))
    }

    @Test func aRelyingPartyTrustingAnotherRootRefusesTheChain() async throws {
        let other = try TestCertificateAuthority()
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .cdp),
            relyingParty: RelyingParty(ids: ["example.com"], trustAnchors: [.packed: [try other.anchor]]))
        await #expect(throws: WebAuthnError(.untrustedAttestationRoot, "")) {
            try await ceremony.register(Ceremony.creationOptions(attestation: .direct))
        }
    }

    @Test func noAttestationWantedMeansNone() async throws {
        let ceremony = Ceremony(SoftwareAuthenticator(store: InMemoryCredentialStore(), profile: .cdp))
        let (_, verified) = try await ceremony.register(
            Ceremony.creationOptions(attestation: AttestationConveyancePreference.none))
        #expect(verified.format == .none)
    }

    @Test(.temporaryDirectory) func theFileStoreMakesItsCAOnceAndKeepsItsKeysSealed() async throws {
        let path = try TemporaryDirectory.current.appending("store")
        let aaguid = AuthenticatorProfile.cdp.aaguid
        let store = try await FileCredentialStore(directory: path)
        let first = try await store.batchAttestation(aaguid: aaguid)
        let authority = try await store.attestationAuthority()
        let reopened = try await FileCredentialStore(directory: path)
        let again = try await reopened.batchAttestation(aaguid: aaguid)
        #expect(again.certificates == first.certificates)
        #expect(try await reopened.attestationAuthority().certificate == authority.certificate)
        let other = try await reopened.batchAttestation(aaguid: AuthenticatorProfile.securityKey.aaguid)
        #expect(other.certificates[1] == authority.certificate, "one CA issues every batch")
        #expect(other.certificates[0] != first.certificates[0])
        for file in try filesBelow(path) {
            for secret in [try first.key.exportedPKCS8(), try authority.key.exportedPKCS8()] {
                #expect(!contains(file.bytes, secret), "\(file.path) holds a key in the clear")
            }
        }
        let mode = try FileManager.default.attributesOfItem(atPath: path + "/attestation.json")[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }

    @Test(.temporaryDirectory) func aDamagedAttestationFileIsCorruptAndTheCredentialsStay() async throws {
        let (path, store, credential) = try await fileStoreWithACredential()
        _ = try await store.batchAttestation(aaguid: AuthenticatorProfile.cdp.aaguid)
        let file = path + "/attestation.json"
        var text = try String(contentsOfFile: file, encoding: .utf8)
        let sealed = try #require(text.range(of: #""sealedKey":""#, options: .backwards))  // the batch's
        let index = text.index(sealed.upperBound, offsetBy: 20)
        text.replaceSubrange(index...index, with: text[index] == "A" ? "B" : "A")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        await #expect(throws: StoreError(.corrupt, "")) {
            try await store.batchAttestation(aaguid: AuthenticatorProfile.cdp.aaguid)
        }
        try "{".write(toFile: file, atomically: true, encoding: .utf8)
        await #expect(throws: StoreError(.corrupt, "")) { try await store.attestationAuthority() }
        #expect(try await store.credential(id: credential.id) == credential)
    }

    @Test func aVendorsCertificateAndKeyAreUsed() async throws {
        let vendor = try TestCertificateAuthority(name: "Vendor Root")
        let key = P256.Signing.PrivateKey()
        let aaguid = AuthenticatorProfile.securityKey.aaguid
        var value = DER.Serializer()
        try value.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid.bytes)))
        let leaf = try vendor.issue(
            try DistinguishedName {
                CountryName("SE")
                OrganizationName("Vendor")
                OrganizationalUnitName("Authenticator Attestation")
                CommonName("Vendor Key")
            }, publicKey: .init(key.publicKey),
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Certificate.Extension(
                    oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: ArraySlice(value.serializedBytes))
            })
        let batch = try BatchAttestation(certificates: [try TestCertificateAuthority.der(leaf)], key: SigningKey(key))
        let store = InMemoryCredentialStore()
        await #expect(throws: StoreError(.invalidCredential, "")) {
            try await store.setBatchAttestation(batch, aaguid: AuthenticatorProfile.cdp.aaguid)
        }
        try await store.setBatchAttestation(batch, aaguid: aaguid)
        var profile = AuthenticatorProfile.securityKey
        profile.batchAttests = true
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: store, profile: profile),
            relyingParty: RelyingParty(ids: ["example.com"], trustAnchors: [.packed: [try vendor.anchor]]))
        let (_, verified) = try await ceremony.register(Ceremony.creationOptions(attestation: .direct))
        #expect(verified.isTrusted)
        #expect(verified.trustPath.map(\.derBytes) == batch.certificates)
    }

    @Test func enterpriseAttestationIdentifiesTheAuthenticatorToTheRelyingPartiesItNames() async throws {
        var profile = AuthenticatorProfile.cdp
        profile.enterpriseAttestationRPIDs = ["example.com"]
        func leafName(_ store: InMemoryCredentialStore, _ profile: AuthenticatorProfile, rpID: String = "example.com")
            async throws -> (String, Bool)
        {
            let authenticator = SoftwareAuthenticator(store: store, profile: profile)
            var request = MakeCredentialRequest(
                clientDataHash: SHA256Digest.hash([1]), rpID: rpID,
                user: .init(id: SecureRandom.bytes(8), name: "ada", displayName: "Ada"), algorithms: [-7],
                attestationFormatsPreference: [.packed])
            request.enterpriseAttestation = 1
            let response = try await authenticator.makeCredential(request)
            let statement = try PackedAttestationStatement(cbor: response.attestationObject.statement)
            let leaf = try Certificate(derEncoded: statement.certificates[0])
            return (leaf.subject.description, response.enterpriseAttestation)
        }
        let store = InMemoryCredentialStore()
        let (first, epAtt) = try await leafName(store, profile)
        #expect(epAtt)
        #expect(first.contains("Enterprise") && first.contains("serial"), "\(first)")
        #expect(try await leafName(store, profile).0 == first, "the same authenticator")
        #expect(try await leafName(InMemoryCredentialStore(), profile).0 != first, "another authenticator")
        let (unlisted, unlistedEpAtt) = try await leafName(store, profile, rpID: "other.example")
        #expect(!unlistedEpAtt && unlisted.contains("Batch"))
        let (plain, plainEpAtt) = try await leafName(store, .cdp)
        #expect(!plainEpAtt && plain.contains("Batch"))

        let root = try X509Certificate(derEncoded: await store.attestationAuthority().certificate)
        let ceremony = Ceremony(
            SoftwareAuthenticator(store: store, profile: profile),
            relyingParty: RelyingParty(ids: ["example.com"], trustAnchors: [.packed: [root]]))
        let (_, verified) = try await ceremony.register(Ceremony.creationOptions(attestation: .enterprise))
        #expect(verified.isTrusted)
        #expect(try #require(verified.trustPath.first).subjectAttribute("CN")?.contains("Enterprise") == true)
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefused() async throws {
        let batch = try await InMemoryCredentialStore().batchAttestation(aaguid: .zero)
        #expect(throws: WebAuthnError(.invalidKey, "")) {
            try BatchAttestation(certificates: batch.certificates, key: try SigningKey.generate(.es256))
        }
        #expect(throws: WebAuthnError(.malformedCertificate, "")) {
            try BatchAttestation(certificates: [], key: batch.key)
        }
        #expect(!String(describing: batch).contains("BEGIN"))
    }
}
