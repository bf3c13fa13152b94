import Foundation
import WebAuthn

/// One fuzz target: what the bytes are read as. Every path must end in a value or a typed
/// `WebAuthnError` (for the CTAP targets: a status byte, see `CTAPFuzz`); a trap, a leak, a memory
/// error or a hang is a bug libFuzzer reports.
enum FuzzTarget: String, CaseIterable {
    case cbor
    case authenticatorData = "authenticator-data"
    case attestationObject = "attestation-object"
    case clientData = "client-data"
    case optionsJSON = "options-json"
    case responseJSON = "response-json"
    case coseKey = "cose-key"
    case x509
    case metadata
    case ctaphid
    case ctapCBOR = "ctap-cbor"

    /// The relying party of the W3C vectors the seeds come from, so that mutated inputs get past
    /// client data and `rpIdHash` into every format's statement verifier.
    private static let relyingParty = RelyingParty(
        ids: ["example.org"], origins: ["https://example.org"], allowsCrossOrigin: true,
        topOrigins: ["https://example.com"])
    private static let challenge = [UInt8](repeating: 0x42, count: 32)
    private static let createClientData = CollectedClientData(
        type: .create, challenge: challenge, origin: "https://example.org"
    ).bytes
    private static let message = Array("signed data".utf8)
    /// The root of the test metadata BLOB (`Vectors/mds/root.pem`), so that its seed verifies whole.
    private static let metadataRoot = try? X509Certificate.certificates(
        pem: """
            -----BEGIN CERTIFICATE-----
            MIIBlDCCATugAwIBAgIUEXvlS8kjbmuCthkBnvHhOudlDp4wCgYIKoZIzj0EAwIw
            QDEaMBgGA1UECgwRU29mdFBhc3NrZXkgVGVzdHMxIjAgBgNVBAMMGVNvZnRQYXNz
            a2V5IFRlc3QgTURTIFJvb3QwHhcNMjUwMTAxMDAwMDAwWhcNMzYwMTAxMDAwMDAw
            WjBAMRowGAYDVQQKDBFTb2Z0UGFzc2tleSBUZXN0czEiMCAGA1UEAwwZU29mdFBh
            c3NrZXkgVGVzdCBNRFMgUm9vdDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABPU0
            Xu3KbxK2c2vtQv+Z2rRQokUUsv7P2+SycBqEX9vITIDdcQnQs5jXldQ4G5T1Zm+j
            0jEUx7E5HrLUz6ZGDzWjEzARMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwID
            RwAwRAIgVmt6Wf138M8AEOkq5PUmcedTTUnhZqZTOWGjY7f7QMcCIH4uwdFjWxtL
            EcOtMetHNPXseb7ueJfiKkZpTHO5UkJZ
            -----END CERTIFICATE-----
            """
    ).first

    /// Reads `bytes` as this target's input.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .cbor:
            _ = try? CBOR(decoding: bytes).encoded()
        case .authenticatorData:
            _ = try? AuthenticatorData(bytes: bytes).attestedCredentialData?.publicKey
        case .attestationObject:
            _ = try? AttestationObject(bytes: bytes)
            _ = try? Self.relyingParty.verifyRegistration(
                clientDataJSON: Self.createClientData, attestationObject: bytes, challenge: Self.challenge)
        case .clientData:
            _ = try? CollectedClientData(bytes: bytes)
        case .optionsJSON:
            _ = try? WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: bytes)
            _ = try? WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: bytes)
        case .responseJSON:
            if let registration = try? WebAuthnJSON.decode(RegistrationResponseJSON.self, from: bytes) {
                _ = try? Self.relyingParty.verifyRegistration(registration, challenge: Self.challenge)
            }
            _ = try? WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: bytes)
        case .coseKey:
            if let key = try? COSEKey(bytes: bytes) {
                _ = try? key.isValidSignature(Self.message, for: Self.message)
            }
        case .metadata:
            if let root = Self.metadataRoot {
                _ = try? MetadataBLOB(jwt: bytes, root: root, at: Date(timeIntervalSince1970: 1_800_000_000))
            }
        case .ctaphid:
            CTAPFuzz.reports(bytes)
        case .ctapCBOR:
            CTAPFuzz.commands(bytes)
        case .x509:
            if let certificate = try? X509Certificate(derEncoded: bytes) {
                _ = try? certificate.publicKey(algorithm: nil)
                _ = certificate.subjectAttribute("CN")
            }
        }
    }
}
