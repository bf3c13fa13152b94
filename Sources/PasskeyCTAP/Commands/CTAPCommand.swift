/// The authenticator API commands of CTAP 2.1 (§6, command bytes in §6 "Authenticator API").
///
/// ``CTAPDevice`` answers the ones it implements and `CTAP1_ERR_INVALID_COMMAND` to the others.
public enum CTAPCommand: UInt8, Sendable, Hashable, CaseIterable {
    /// `authenticatorMakeCredential` (§6.1).
    case makeCredential = 0x01
    /// `authenticatorGetAssertion` (§6.2).
    case getAssertion = 0x02
    /// `authenticatorGetInfo` (§6.4).
    case getInfo = 0x04
    /// `authenticatorClientPIN` (§6.5).
    case clientPIN = 0x06
    /// `authenticatorReset` (§6.6).
    case reset = 0x07
    /// `authenticatorGetNextAssertion` (§6.3).
    case getNextAssertion = 0x08
    /// `authenticatorBioEnrollment` (§6.7).
    case bioEnrollment = 0x09
    /// `authenticatorCredentialManagement` (§6.8).
    case credentialManagement = 0x0A
    /// `authenticatorSelection` (§6.9).
    case selection = 0x0B
    /// `authenticatorLargeBlobs` (§6.10).
    case largeBlobs = 0x0C
    /// `authenticatorConfig` (§6.11).
    case config = 0x0D
    /// The `FIDO_2_1_PRE` prototype of `authenticatorCredentialManagement` (§6.13), answered as 0x0A.
    case credentialManagementPreview = 0x41
}
