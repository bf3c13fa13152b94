/// What answers CTAP2 messages: one authenticator API command byte and its CBOR parameters in,
/// one status byte and the CBOR response out (CTAP 2.1 §8.1, §8.2). The CTAPHID layer (§11.2)
/// hands every `CTAPHID_CBOR` message to one, whatever carries the reports.
public protocol CTAPCommandHandler: Sendable {
    /// Answers one message.
    ///
    /// - Parameters:
    ///   - message: the command byte, then its CBOR-encoded parameters (possibly none).
    ///   - context: the transaction's channel, its cancellation and its keep-alive.
    /// - Returns: the status byte (`CTAP2_OK` or an error code), then the CBOR response for `CTAP2_OK`.
    func handle(_ message: [UInt8], context: CTAPTransaction) async -> [UInt8]
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
