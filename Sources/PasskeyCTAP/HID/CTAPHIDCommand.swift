/// The command byte of a CTAPHID message (CTAP 2.1 §11.2.9), without the initialization packet's bit 7.
///
/// Commands this layer does not know reach it as plain bytes and are answered
/// ``CTAPHIDErrorCode/invalidCommand``.
public enum CTAPHIDCommand: UInt8, Sendable {
    /// `CTAPHID_PING`: echoes its data (§11.2.9.1.4).
    case ping = 0x01
    /// `CTAPHID_MSG`: a U2F (CTAP1) APDU (§11.2.9.1.1), for a handler that speaks U2F.
    case msg = 0x03
    /// `CTAPHID_LOCK`: reserves the device for one channel for 0–10 seconds (§11.2.9.2.2).
    case lock = 0x04
    /// `CTAPHID_INIT`: allocates a channel, or resynchronizes one (§11.2.9.1.3).
    case initialize = 0x06
    /// `CTAPHID_WINK`: asks the device to identify itself to the user (§11.2.9.2.1).
    case wink = 0x08
    /// `CTAPHID_CBOR`: a CTAP2 authenticator API message (§11.2.9.1.2).
    case cbor = 0x10
    /// `CTAPHID_CANCEL`: cancels the channel's outstanding CBOR request (§11.2.9.1.5).
    case cancel = 0x11
    /// `CTAPHID_KEEPALIVE`: the device is still working on the request (§11.2.9.1.7).
    case keepAlive = 0x3B
    /// `CTAPHID_ERROR`: the request failed at the transport level (§11.2.9.1.6).
    case error = 0x3F
}

/// The one byte of a `CTAPHID_ERROR` response (CTAP 2.1 §11.2.9.1.6), also thrown when a report
/// cannot be read.
public enum CTAPHIDErrorCode: UInt8, Error, Sendable {
    /// `ERR_INVALID_CMD`: the command is not known (also `CTAP1_ERR_INVALID_COMMAND`).
    case invalidCommand = 0x01
    /// `ERR_INVALID_PAR`: a parameter of the command is out of range.
    case invalidParameter = 0x02
    /// `ERR_INVALID_LEN`: the message's length is wrong for its command, or above the device's limit.
    case invalidLength = 0x03
    /// `ERR_INVALID_SEQ`: a continuation packet came out of order.
    case invalidSequence = 0x04
    /// `ERR_MSG_TIMEOUT`: the rest of a message did not arrive in time.
    case messageTimeout = 0x05
    /// `ERR_CHANNEL_BUSY`: another channel's transaction (or lock) holds the device.
    case channelBusy = 0x06
    /// `ERR_LOCK_REQUIRED`: the command needs a channel lock; this device never asks for one.
    case lockRequired = 0x0A
    /// `ERR_INVALID_CHANNEL`: the channel was never allocated, or is 0, or is the broadcast channel
    /// for a command other than `CTAPHID_INIT`.
    case invalidChannel = 0x0B
    /// `ERR_OTHER`: anything else.
    case other = 0x7F
}
