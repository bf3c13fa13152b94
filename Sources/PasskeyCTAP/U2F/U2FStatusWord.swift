/// The status word that ends every U2F response message (FIDO U2F Raw Message Formats v1.2 §3.3,
/// ISO/IEC 7816-4 §5.1.3), two bytes big-endian after the response data; thrown by the U2F
/// command layer, as the wire carries nothing else of a failure.
public enum U2FStatusWord: UInt16, Error, Sendable {
    /// `SW_NO_ERROR`: the command succeeded.
    case noError = 0x9000
    /// `SW_CONDITIONS_NOT_SATISFIED`: the test of user presence is required (the client asks
    /// again), or, for a check-only authenticate, the key handle is this authenticator's.
    case conditionsNotSatisfied = 0x6985
    /// `SW_WRONG_DATA`: an invalid key handle, or a parameter of the wrong value.
    case wrongData = 0x6A80
    /// `SW_WRONG_LENGTH`: the APDU, or its request data, has the wrong length.
    case wrongLength = 0x6700
    /// `SW_CLA_NOT_SUPPORTED`: the class byte is not 0.
    case claNotSupported = 0x6E00
    /// `SW_INS_NOT_SUPPORTED`: not an instruction of U2F.
    case insNotSupported = 0x6D00
    /// ISO/IEC 7816-4's "no precise diagnosis": the authenticator failed (its store, say).
    case noPreciseDiagnosis = 0x6F00

    /// The two bytes on the wire.
    public var bytes: [UInt8] { [UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)] }
}
