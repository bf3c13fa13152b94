/// One 64-byte CTAPHID report (CTAP 2.1 §11.2.4): the initialization packet of a message, or one of
/// its continuation packets.
///
/// ```
/// initialization: CID (4, big-endian) ‖ CMD (1, bit 7 set) ‖ BCNTH ‖ BCNTL ‖ DATA (57)
/// continuation:   CID (4, big-endian) ‖ SEQ (1, 0…127, bit 7 clear) ‖ DATA (59)
/// ```
///
/// `DATA` is always the full 57 or 59 bytes: the message's length (`BCNT`) says how much of it
/// counts; the rest is padding.
package struct CTAPHIDPacket: Sendable, Hashable {
    /// The size of every report of the FIDO usage page's report descriptor (§11.2.8.1).
    package static let size = 64
    /// The payload an initialization packet carries.
    package static let initializationData = size - 7
    /// The payload a continuation packet carries.
    package static let continuationData = size - 5

    /// What the packet's fifth byte says.
    package enum Kind: Sendable, Hashable {
        /// The first packet of a message: its command (bit 7 cleared) and its total payload length.
        case initialization(command: UInt8, length: Int)
        /// A later packet, with its sequence number.
        case continuation(sequence: UInt8)
    }

    /// The channel identifier (CID).
    package let channel: UInt32
    /// Initialization or continuation.
    package let kind: Kind
    /// The payload part, padding included: 57 or 59 bytes.
    package let data: [UInt8]

    /// Makes a packet, padding `data` with zeros.
    ///
    /// - Precondition: `data` fits the packet (57 or 59 bytes at most), which the fragmenting
    ///   ``CTAPHIDMessage/packets`` guarantees.
    package init(channel: UInt32, kind: Kind, data: ArraySlice<UInt8>) {
        let capacity: Int
        switch kind {
        case .initialization: capacity = Self.initializationData
        case .continuation: capacity = Self.continuationData
        }
        precondition(data.count <= capacity, "a CTAPHID packet holds \(capacity) bytes")
        self.channel = channel
        self.kind = kind
        self.data = Array(data) + [UInt8](repeating: 0, count: capacity - data.count)
    }

    /// Reads a report.
    ///
    /// - Parameter bytes: exactly 64 bytes.
    /// - Throws: ``CTAPHIDErrorCode/invalidLength`` when the report is not 64 bytes long.
    package init(bytes: [UInt8]) throws(CTAPHIDErrorCode) {
        guard bytes.count == Self.size else { throw .invalidLength }
        var rest = bytes[...]
        channel = rest.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
        rest = rest.dropFirst(4)
        let command = rest.removeFirst()  // 60 bytes remain: the guard above
        if command & 0x80 != 0 {
            let length = rest.prefix(2).reduce(0) { $0 << 8 | Int($1) }
            kind = .initialization(command: command & 0x7F, length: length)
            data = Array(rest.dropFirst(2))
        } else {
            kind = .continuation(sequence: command)
            data = Array(rest)
        }
    }

    /// The 64 bytes of the report.
    package var bytes: [UInt8] {
        var bytes = [
            UInt8(channel >> 24), UInt8(channel >> 16 & 0xFF), UInt8(channel >> 8 & 0xFF), UInt8(channel & 0xFF),
        ]
        switch kind {
        case .initialization(let command, let length):
            bytes += [command | 0x80, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        case .continuation(let sequence):
            bytes.append(sequence)
        }
        return bytes + data
    }
}

/// A whole CTAPHID message on a channel (CTAP 2.1 §11.2.4): what the packets carry once reassembled.
package struct CTAPHIDMessage: Sendable, Hashable {
    /// The longest payload: one initialization packet and 128 continuation packets
    /// (57 + 128 × 59 = 7609 bytes, §11.2.4).
    package static let maximumLength = CTAPHIDPacket.initializationData + 128 * CTAPHIDPacket.continuationData

    /// The channel identifier (CID).
    package let channel: UInt32
    /// The command byte, bit 7 cleared.
    package let command: UInt8
    /// The payload.
    package let payload: [UInt8]

    /// Makes a message.
    package init(channel: UInt32, command: UInt8, payload: [UInt8]) {
        self.channel = channel
        self.command = command
        self.payload = payload
    }

    /// Makes a message with a known command.
    package init(channel: UInt32, command: CTAPHIDCommand, payload: [UInt8] = []) {
        self.init(channel: channel, command: command.rawValue, payload: payload)
    }

    /// The message split into packets: 57 bytes in the initialization packet, then 59 per
    /// continuation packet with sequence numbers from 0.
    ///
    /// - Precondition: the payload is at most ``maximumLength`` bytes.
    package var packets: [CTAPHIDPacket] {
        precondition(payload.count <= Self.maximumLength, "a CTAPHID message holds \(Self.maximumLength) bytes")
        var packets = [
            CTAPHIDPacket(
                channel: channel, kind: .initialization(command: command, length: payload.count),
                data: payload.prefix(CTAPHIDPacket.initializationData))
        ]
        var rest = payload.dropFirst(CTAPHIDPacket.initializationData)
        var sequence: UInt8 = 0
        while !rest.isEmpty {
            packets.append(
                CTAPHIDPacket(
                    channel: channel, kind: .continuation(sequence: sequence),
                    data: rest.prefix(CTAPHIDPacket.continuationData)))
            rest = rest.dropFirst(CTAPHIDPacket.continuationData)
            sequence += 1
        }
        return packets
    }
}
