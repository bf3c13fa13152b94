import FoundationEssentials
import PasskeyAuthenticator
public import WebAuthn

// INTERIM: a stand-in for the `pki` helper's ConformancePKI (CONTRACT43.md), with the contract's
// API and random keys, so that the metadata service builds and runs before that work is merged.
// Delete this file when Sources/PasskeyConformance/Attestation/ConformancePKI.swift arrives.

public enum ConformanceFormat: String, Sendable, Hashable, CaseIterable {
    case none, packedSelf = "packed-self", packed, fidoU2F = "fido-u2f", tpm, androidKey = "android-key", apple
}

public enum AttestationFault: String, Sendable, Hashable, CaseIterable {
    case badSignature = "bad-signature", wrongCertificateProfile = "wrong-certificate-profile"
    case wrongAAGUID = "wrong-aaguid", expiredChain = "expired-chain", untrustedChain = "untrusted-chain"
}

public struct ConformancePKI: Sendable {
    public static let defaultSeed = "softpasskey-conformance"
    private let authority: AttestationCertificateAuthority
    private let signer: BatchAttestation
    private let expiredSigner: BatchAttestation
    private let untrustedSigner: BatchAttestation

    public init(seed: String = defaultSeed) throws(WebAuthnError) {
        authority = try .generate(commonName: "SoftPasskey Conformance Root (\(seed))")
        signer = try authority.issueBatchAttestation(aaguid: .zero, commonName: "Metadata Signer")
        expiredSigner = try authority.issueBatchAttestation(
            aaguid: .zero, commonName: "Expired Metadata Signer", now: Date() - 30 * 365 * 86_400)
        untrustedSigner = try AttestationCertificateAuthority.generate(commonName: "Nobody's Root")
            .issueBatchAttestation(aaguid: .zero, commonName: "Untrusted Metadata Signer")
    }

    public var root: X509Certificate {
        try! X509Certificate(derEncoded: authority.certificate)  // made by this process: always DER
    }

    public var rootPEM: String { authority.pem }

    public func attest(
        _ format: ConformanceFormat, authenticatorData: AuthenticatorData, clientDataHash: [UInt8],
        credentialKey: SigningKey, fault: AttestationFault? = nil
    ) throws(WebAuthnError) -> (format: AttestationFormat, statement: CBOR) {
        let aaguid = authenticatorData.attestedCredentialData?.aaguid ?? .zero
        let batch = try authority.issueBatchAttestation(aaguid: aaguid, commonName: "Conformance Batch")
        return (.packed, try batch.statement(authenticatorData, clientDataHash).cbor)
    }

    public func metadataSigner(trusted: Bool = true, expired: Bool = false) throws(WebAuthnError)
        -> (key: SigningKey, chain: [[UInt8]])
    {
        let batch = !trusted ? untrustedSigner : expired ? expiredSigner : signer
        return (batch.key, Array(batch.certificates.dropLast()))
    }
}
