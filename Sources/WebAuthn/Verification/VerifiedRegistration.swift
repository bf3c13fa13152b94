/// How an attestation vouches for a new credential (WebAuthn L3 §6.5.3).
public enum AttestationType: String, Sendable, Hashable, CustomStringConvertible {
    /// No attestation (`none`).
    case none
    /// The credential signed its own attestation (packed without x5c).
    case `self`
    /// An attestation certificate signed it (packed with x5c, fido-u2f, android-key,
    /// android-safetynet: Basic or AttCA, which only authenticator metadata tells apart).
    case basic
    /// An Attestation CA certified a per-credential attestation key (`tpm`'s AIK certificate).
    case attCA
    /// An Anonymization CA made a certificate for this credential alone (`apple`).
    case anonCA

    public var description: String { rawValue }
}

/// A registration that passed every check of WebAuthn L3 §7.1: what the relying party stores.
public struct VerifiedRegistration: Sendable, Hashable {
    /// The credential ID.
    public let credentialID: [UInt8]
    /// The credential public key, COSE_Key bytes as the authenticator wrote them.
    public let credentialPublicKey: [UInt8]
    /// The credential's algorithm.
    public let algorithm: COSEAlgorithm
    /// The initial signature counter.
    public let signCount: UInt32
    /// The authenticator model.
    public let aaguid: AAGUID
    /// The attestation statement format.
    public let format: AttestationFormat
    /// How the attestation vouches for the credential.
    public let attestationType: AttestationType
    /// The attestation certificate chain, leaf first; empty for `none` and self attestation.
    public let trustPath: [X509Certificate]
    /// Whether ``trustPath`` chains to one of the relying party's trust anchors.
    public let isTrusted: Bool
    /// The authenticator data, with its flags and extension outputs.
    public let authenticatorData: AuthenticatorData
    /// The collected client data.
    public let clientData: CollectedClientData

    /// Whether the credential may be backed up (BE): a multi-device credential.
    public var backupEligible: Bool { authenticatorData.flags.contains(.backupEligible) }
    /// Whether the credential is backed up now (BS).
    public var backupState: Bool { authenticatorData.flags.contains(.backupState) }
    /// Whether the user was verified (UV).
    public var userVerified: Bool { authenticatorData.flags.contains(.userVerified) }

    /// The record to store for verifying this credential's assertions.
    ///
    /// - Parameters:
    ///   - userHandle: the handle of the account the credential was made for.
    ///   - transports: the response's `transports`, for the credential's descriptor.
    /// - Returns: the record.
    public func record(userHandle: [UInt8]? = nil, transports: [AuthenticatorTransport]? = nil) -> CredentialRecord {
        CredentialRecord(
            id: credentialID, publicKey: credentialPublicKey, signCount: signCount, backupEligible: backupEligible,
            userHandle: userHandle, transports: transports)
    }
}

/// An assertion that passed every check of WebAuthn L3 §7.2.
public struct VerifiedAuthentication: Sendable, Hashable {
    /// The credential that signed.
    public let credentialID: [UInt8]
    /// The new signature counter, to store in the credential record.
    public let signCount: UInt32
    /// The authenticator data, with its flags and extension outputs.
    public let authenticatorData: AuthenticatorData
    /// The collected client data.
    public let clientData: CollectedClientData

    /// Whether the user was verified (UV).
    public var userVerified: Bool { authenticatorData.flags.contains(.userVerified) }
    /// Whether the credential is backed up now (BS); store it in the credential record.
    public var backupState: Bool { authenticatorData.flags.contains(.backupState) }
}
