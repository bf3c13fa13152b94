/// What answers CTAP2 messages: one authenticator API command byte and its CBOR parameters in,
/// one status byte and the CBOR response out (CTAP 2.1 §8.1, §8.2). The CTAPHID layer (§11.2)
/// hands every `CTAPHID_CBOR` message to one, whatever carries the reports, and every
/// `CTAPHID_MSG` message (a U2F APDU, §11.2.9.1.1) to one that ``speaksU2F``; the defaults speak
/// no U2F.
public protocol CTAPCommandHandler: Sendable {
    /// Answers one message.
    ///
    /// - Parameters:
    ///   - message: the command byte, then its CBOR-encoded parameters (possibly none).
    ///   - context: the transaction's channel, its cancellation and its keep-alive.
    /// - Returns: the status byte (`CTAP2_OK` or an error code), then the CBOR response for `CTAP2_OK`.
    func handle(_ message: [UInt8], context: CTAPTransaction) async -> [UInt8]

    /// Whether the handler answers U2F (CTAP1) messages: the CTAPHID layer then routes
    /// `CTAPHID_MSG` to ``handleU2F(_:context:)`` and leaves `CAPABILITY_NMSG` out of its
    /// `CTAPHID_INIT` response (§11.2.9.1.3).
    var speaksU2F: Bool { get }

    /// Answers one U2F request message (FIDO U2F Raw Message Formats v1.2 §3).
    ///
    /// - Parameters:
    ///   - apdu: the command APDU.
    ///   - context: the transaction's channel and its cancellation.
    /// - Returns: the response data, then the two-byte status word.
    func handleU2F(_ apdu: [UInt8], context: CTAPTransaction) async -> [UInt8]
}

extension CTAPCommandHandler {
    /// None: a handler speaks no U2F unless it says so.
    public var speaksU2F: Bool { false }

    /// Refuses every instruction (`SW_INS_NOT_SUPPORTED`).
    public func handleU2F(_ apdu: [UInt8], context: CTAPTransaction) async -> [UInt8] {
        U2FStatusWord.insNotSupported.bytes
    }
}

/// One CTAPHID transaction as the command layer sees it (CTAP 2.1 §11.2.9.1.3, §11.2.9.2.1).
public struct CTAPTransaction: Sendable {
    /// The channel the command came on.
    public let channel: UInt32
    /// True once the client sent `CTAPHID_CANCEL` for this transaction: a command waiting for user
    /// presence then answers `CTAP2_ERR_KEEPALIVE_CANCEL`.
    public let isCancelled: @Sendable () -> Bool
    /// Tells the client the command is still running (`CTAPHID_KEEPALIVE`, sent at least every 100 ms
    /// while the command waits), with why.
    public let keepAlive: @Sendable (KeepAliveStatus) -> Void

    /// Creates a transaction.
    public init(
        channel: UInt32, isCancelled: @escaping @Sendable () -> Bool = { false },
        keepAlive: @escaping @Sendable (KeepAliveStatus) -> Void = { _ in }
    ) {
        self.channel = channel
        self.isCancelled = isCancelled
        self.keepAlive = keepAlive
    }
}

/// The status byte of a `CTAPHID_KEEPALIVE` (CTAP 2.1 §11.2.9.2.1).
public enum KeepAliveStatus: UInt8, Sendable {
    /// The authenticator is still processing the request.
    case processing = 1
    /// The authenticator is waiting for user presence.
    case userPresenceNeeded = 2
}
