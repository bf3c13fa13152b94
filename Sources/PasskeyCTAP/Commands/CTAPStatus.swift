/// A CTAP status byte: the first byte of every response to an authenticator API command
/// (CTAP 2.1 §8.2, status codes in §6.3 / §8.2.1).
///
/// `CTAP2_OK` is 0x00; every other value names why the command failed. The HID-only codes
/// (`CTAP1_ERR_CHANNEL_BUSY`, …) travel in `CTAPHID_ERROR` instead (§11.2.9.1.6) but share the
/// numbering, so they are named here too.
public struct CTAPStatus: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    /// The status byte.
    public let rawValue: UInt8

    /// Wraps a status byte.
    ///
    /// - Parameter rawValue: the byte, named or not.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `CTAP2_OK` (`CTAP1_ERR_SUCCESS`): the command succeeded.
    public static let ok = CTAPStatus(rawValue: 0x00)
    /// `CTAP1_ERR_INVALID_COMMAND`: not a command this authenticator knows.
    public static let invalidCommand = CTAPStatus(rawValue: 0x01)
    /// `CTAP1_ERR_INVALID_PARAMETER`: a parameter has a wrong value.
    public static let invalidParameter = CTAPStatus(rawValue: 0x02)
    /// `CTAP1_ERR_INVALID_LENGTH`: a message or item has a wrong length.
    public static let invalidLength = CTAPStatus(rawValue: 0x03)
    /// `CTAP1_ERR_INVALID_SEQ`: a CTAPHID continuation packet out of sequence.
    public static let invalidSequence = CTAPStatus(rawValue: 0x04)
    /// `CTAP1_ERR_TIMEOUT`: a CTAPHID message timed out.
    public static let timeout = CTAPStatus(rawValue: 0x05)
    /// `CTAP1_ERR_CHANNEL_BUSY`: another channel's transaction is running.
    public static let channelBusy = CTAPStatus(rawValue: 0x06)
    /// `CTAP1_ERR_LOCK_REQUIRED`: the command needs a channel lock.
    public static let lockRequired = CTAPStatus(rawValue: 0x0A)
    /// `CTAP1_ERR_INVALID_CHANNEL`: the command is not allowed on this channel.
    public static let invalidChannel = CTAPStatus(rawValue: 0x0B)
    /// `CTAP2_ERR_CBOR_UNEXPECTED_TYPE`: a CBOR item of the wrong type.
    public static let cborUnexpectedType = CTAPStatus(rawValue: 0x11)
    /// `CTAP2_ERR_INVALID_CBOR`: CBOR that does not parse or is not CTAP2 canonical (§8).
    public static let invalidCBOR = CTAPStatus(rawValue: 0x12)
    /// `CTAP2_ERR_MISSING_PARAMETER`: a required parameter is missing.
    public static let missingParameter = CTAPStatus(rawValue: 0x14)
    /// `CTAP2_ERR_LIMIT_EXCEEDED`: too many items.
    public static let limitExceeded = CTAPStatus(rawValue: 0x15)
    /// `CTAP2_ERR_FP_DATABASE_FULL`: no room for another fingerprint.
    public static let fingerprintDatabaseFull = CTAPStatus(rawValue: 0x17)
    /// `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL`: the large-blob array would not fit.
    public static let largeBlobStorageFull = CTAPStatus(rawValue: 0x18)
    /// `CTAP2_ERR_CREDENTIAL_EXCLUDED`: a credential of the exclude list is here.
    public static let credentialExcluded = CTAPStatus(rawValue: 0x19)
    /// `CTAP2_ERR_PROCESSING`: a lengthy operation is in progress.
    public static let processing = CTAPStatus(rawValue: 0x21)
    /// `CTAP2_ERR_INVALID_CREDENTIAL`: a credential not valid for this authenticator.
    public static let invalidCredential = CTAPStatus(rawValue: 0x22)
    /// `CTAP2_ERR_USER_ACTION_PENDING`: waiting for the user.
    public static let userActionPending = CTAPStatus(rawValue: 0x23)
    /// `CTAP2_ERR_OPERATION_PENDING`: a lengthy operation is still running.
    public static let operationPending = CTAPStatus(rawValue: 0x24)
    /// `CTAP2_ERR_NO_OPERATIONS`: no request is pending.
    public static let noOperations = CTAPStatus(rawValue: 0x25)
    /// `CTAP2_ERR_UNSUPPORTED_ALGORITHM`: no offered algorithm is supported.
    public static let unsupportedAlgorithm = CTAPStatus(rawValue: 0x26)
    /// `CTAP2_ERR_OPERATION_DENIED`: the user declined.
    public static let operationDenied = CTAPStatus(rawValue: 0x27)
    /// `CTAP2_ERR_KEY_STORE_FULL`: no room for another credential.
    public static let keyStoreFull = CTAPStatus(rawValue: 0x28)
    /// `CTAP2_ERR_UNSUPPORTED_OPTION`: an option this authenticator does not have.
    public static let unsupportedOption = CTAPStatus(rawValue: 0x2B)
    /// `CTAP2_ERR_INVALID_OPTION`: an option value not allowed here.
    public static let invalidOption = CTAPStatus(rawValue: 0x2C)
    /// `CTAP2_ERR_KEEPALIVE_CANCEL`: the client cancelled (`CTAPHID_CANCEL`).
    public static let keepAliveCancel = CTAPStatus(rawValue: 0x2D)
    /// `CTAP2_ERR_NO_CREDENTIALS`: no credential matches.
    public static let noCredentials = CTAPStatus(rawValue: 0x2E)
    /// `CTAP2_ERR_USER_ACTION_TIMEOUT`: the user did not act in time.
    public static let userActionTimeout = CTAPStatus(rawValue: 0x2F)
    /// `CTAP2_ERR_NOT_ALLOWED`: not allowed now (GetNextAssertion with nothing pending, Reset
    /// after its window).
    public static let notAllowed = CTAPStatus(rawValue: 0x30)
    /// `CTAP2_ERR_PIN_INVALID`: a wrong PIN.
    public static let pinInvalid = CTAPStatus(rawValue: 0x31)
    /// `CTAP2_ERR_PIN_BLOCKED`: no PIN retries left.
    public static let pinBlocked = CTAPStatus(rawValue: 0x32)
    /// `CTAP2_ERR_PIN_AUTH_INVALID`: a pinUvAuthParam that does not verify.
    public static let pinAuthInvalid = CTAPStatus(rawValue: 0x33)
    /// `CTAP2_ERR_PIN_AUTH_BLOCKED`: too many failed pinUvAuthParams since power-up.
    public static let pinAuthBlocked = CTAPStatus(rawValue: 0x34)
    /// `CTAP2_ERR_PIN_NOT_SET`: no PIN is set.
    public static let pinNotSet = CTAPStatus(rawValue: 0x35)
    /// `CTAP2_ERR_PUAT_REQUIRED`: a pinUvAuthToken is required (2.0's `PIN_REQUIRED`).
    public static let pinUVAuthTokenRequired = CTAPStatus(rawValue: 0x36)
    /// `CTAP2_ERR_PIN_POLICY_VIOLATION`: the PIN breaks the policy.
    public static let pinPolicyViolation = CTAPStatus(rawValue: 0x37)
    /// `CTAP2_ERR_REQUEST_TOO_LARGE`: the request is over the authenticator's limit.
    public static let requestTooLarge = CTAPStatus(rawValue: 0x39)
    /// `CTAP2_ERR_ACTION_TIMEOUT`: the authenticator timed out waiting.
    public static let actionTimeout = CTAPStatus(rawValue: 0x3A)
    /// `CTAP2_ERR_UP_REQUIRED`: user presence is required.
    public static let userPresenceRequired = CTAPStatus(rawValue: 0x3B)
    /// `CTAP2_ERR_UV_BLOCKED`: built-in user verification is blocked.
    public static let uvBlocked = CTAPStatus(rawValue: 0x3C)
    /// `CTAP2_ERR_INTEGRITY_FAILURE`: a checksum that does not match.
    public static let integrityFailure = CTAPStatus(rawValue: 0x3D)
    /// `CTAP2_ERR_INVALID_SUBCOMMAND`: an unknown subcommand.
    public static let invalidSubcommand = CTAPStatus(rawValue: 0x3E)
    /// `CTAP2_ERR_UV_INVALID`: built-in user verification failed.
    public static let uvInvalid = CTAPStatus(rawValue: 0x3F)
    /// `CTAP2_ERR_UNAUTHORIZED_PERMISSION`: the pinUvAuthToken lacks a permission.
    public static let unauthorizedPermission = CTAPStatus(rawValue: 0x40)
    /// `CTAP1_ERR_OTHER`: anything else.
    public static let other = CTAPStatus(rawValue: 0x7F)

    private static let names: [UInt8: String] = [
        0x00: "CTAP2_OK", 0x01: "CTAP1_ERR_INVALID_COMMAND", 0x02: "CTAP1_ERR_INVALID_PARAMETER",
        0x03: "CTAP1_ERR_INVALID_LENGTH", 0x04: "CTAP1_ERR_INVALID_SEQ", 0x05: "CTAP1_ERR_TIMEOUT",
        0x06: "CTAP1_ERR_CHANNEL_BUSY", 0x0A: "CTAP1_ERR_LOCK_REQUIRED", 0x0B: "CTAP1_ERR_INVALID_CHANNEL",
        0x11: "CTAP2_ERR_CBOR_UNEXPECTED_TYPE", 0x12: "CTAP2_ERR_INVALID_CBOR", 0x14: "CTAP2_ERR_MISSING_PARAMETER",
        0x15: "CTAP2_ERR_LIMIT_EXCEEDED", 0x17: "CTAP2_ERR_FP_DATABASE_FULL",
        0x18: "CTAP2_ERR_LARGE_BLOB_STORAGE_FULL", 0x19: "CTAP2_ERR_CREDENTIAL_EXCLUDED",
        0x21: "CTAP2_ERR_PROCESSING", 0x22: "CTAP2_ERR_INVALID_CREDENTIAL", 0x23: "CTAP2_ERR_USER_ACTION_PENDING",
        0x24: "CTAP2_ERR_OPERATION_PENDING", 0x25: "CTAP2_ERR_NO_OPERATIONS",
        0x26: "CTAP2_ERR_UNSUPPORTED_ALGORITHM", 0x27: "CTAP2_ERR_OPERATION_DENIED",
        0x28: "CTAP2_ERR_KEY_STORE_FULL", 0x2B: "CTAP2_ERR_UNSUPPORTED_OPTION", 0x2C: "CTAP2_ERR_INVALID_OPTION",
        0x2D: "CTAP2_ERR_KEEPALIVE_CANCEL", 0x2E: "CTAP2_ERR_NO_CREDENTIALS", 0x2F: "CTAP2_ERR_USER_ACTION_TIMEOUT",
        0x30: "CTAP2_ERR_NOT_ALLOWED", 0x31: "CTAP2_ERR_PIN_INVALID", 0x32: "CTAP2_ERR_PIN_BLOCKED",
        0x33: "CTAP2_ERR_PIN_AUTH_INVALID", 0x34: "CTAP2_ERR_PIN_AUTH_BLOCKED", 0x35: "CTAP2_ERR_PIN_NOT_SET",
        0x36: "CTAP2_ERR_PUAT_REQUIRED", 0x37: "CTAP2_ERR_PIN_POLICY_VIOLATION",
        0x39: "CTAP2_ERR_REQUEST_TOO_LARGE", 0x3A: "CTAP2_ERR_ACTION_TIMEOUT", 0x3B: "CTAP2_ERR_UP_REQUIRED",
        0x3C: "CTAP2_ERR_UV_BLOCKED", 0x3D: "CTAP2_ERR_INTEGRITY_FAILURE", 0x3E: "CTAP2_ERR_INVALID_SUBCOMMAND",
        0x3F: "CTAP2_ERR_UV_INVALID", 0x40: "CTAP2_ERR_UNAUTHORIZED_PERMISSION", 0x7F: "CTAP1_ERR_OTHER",
    ]

    /// The specification's name, or the byte in hex for one CTAP 2.1 does not name.
    public var description: String {
        Self.names[rawValue] ?? "CTAP status 0x" + String(rawValue, radix: 16, uppercase: true)
    }
}
