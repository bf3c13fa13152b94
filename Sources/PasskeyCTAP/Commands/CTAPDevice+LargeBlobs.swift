import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// The longest fragment one get or set moves (§6.10.2 `maxFragmentLength`): `maxMsgSize` less
    /// 64 bytes for the request's or response's own CBOR.
    static let maxFragmentLength = maxMessageSize - 64

    /// `authenticatorLargeBlobs` (CTAP 2.1 §6.10): reads the serialized large-blob array in
    /// fragments, or writes a new one in fragments, checked whole before it replaces the old.
    ///
    /// ```
    /// request  = { ? 0x01 get: uint, ? 0x02 set: bytes, 0x03 offset: uint, ? 0x04 length: uint,
    ///              ? 0x05 pinUvAuthParam: bytes, ? 0x06 pinUvAuthProtocol: uint }
    /// response = { 0x01 config: bytes }   ; for get; set answers nothing
    /// pinUvAuthParam = authenticate(pinUvAuthToken,
    ///                               32 × 0xff ‖ h'0c00' ‖ uint32LE(offset) ‖ SHA-256(set))
    /// ```
    ///
    /// The first fragment (offset 0) carries the array's whole `length`; the last completes it,
    /// and its trailing 16 bytes must be `LEFT(SHA-256(array), 16)`. While a PIN is set, each
    /// fragment is authorized by a pinUvAuthToken with the `lbw` permission.
    ///
    /// - Parameter parameters: the request.
    /// - Returns: `{1: fragment}` for get, `nil` for set.
    /// - Throws: `CTAP1_ERR_INVALID_COMMAND` when the authenticator keeps no large blobs,
    ///   `CTAP1_ERR_INVALID_PARAMETER` (offset missing, neither or both of get and set, a length
    ///   where none belongs, an offset past the array or a fragment past the announced length),
    ///   `CTAP1_ERR_INVALID_LENGTH` (a fragment over ``maxFragmentLength``),
    ///   `CTAP2_ERR_LARGE_BLOB_STORAGE_FULL`, `CTAP1_ERR_INVALID_SEQ` (an offset out of order),
    ///   `CTAP2_ERR_INTEGRITY_FAILURE` (a wrong hash), or the statuses of
    ///   ``authorize(_:rpID:message:parameters:paramKey:protocolKey:)``.
    func largeBlobs(_ parameters: CTAPParameters) async throws(CTAPError) -> CBOR? {
        guard let limit = authenticator.info.maxSerializedLargeBlobArray else {
            throw CTAPError(.invalidCommand, "this authenticator keeps no large blobs")
        }
        guard let offset = try parameters[3]?.ctapCount("offset") else {
            throw CTAPError(.invalidParameter, "offset (0x03) is missing")
        }
        let length = try parameters[4]?.ctapCount("length")
        switch (try parameters[1]?.ctapCount("get"), try parameters[2]?.ctapBytes("set")) {
        case (let count?, nil):
            guard length == nil, parameters[5] == nil, parameters[6] == nil else {
                throw CTAPError(.invalidParameter, "get takes no length, pinUvAuthParam or pinUvAuthProtocol")
            }
            guard count <= Self.maxFragmentLength else {
                throw CTAPError(.invalidLength, "get asks for more than \(Self.maxFragmentLength) bytes")
            }
            let serialized = try await authenticating { () async throws(AuthenticatorError) in
                try await authenticator.largeBlobs()
            }
            guard offset <= serialized.count else {
                throw CTAPError(.invalidParameter, "offset \(offset) is past the array's \(serialized.count) bytes")
            }
            return [1: .bytes(Array(serialized.dropFirst(offset).prefix(count)))]
        case (nil, let fragment?):
            try await write(fragment, at: offset, length: length, limit: limit, parameters)
            return nil
        default:
            throw CTAPError(.invalidParameter, "a largeBlobs request has exactly one of get and set")
        }
    }

    /// One `set` fragment (§6.10.2 steps for set), keeping the array once it is complete and
    /// intact.
    private func write(
        _ fragment: [UInt8], at offset: Int, length: Int?, limit: Int, _ parameters: CTAPParameters
    ) async throws(CTAPError) {
        guard fragment.count <= Self.maxFragmentLength else {
            throw CTAPError(.invalidLength, "a fragment is at most \(Self.maxFragmentLength) bytes")
        }
        var write: LargeBlobWrite
        if offset == 0 {
            guard let length else {
                throw CTAPError(.invalidParameter, "the first fragment carries the array's length")
            }
            guard length <= limit else {
                throw CTAPError(
                    .largeBlobStorageFull, "the array is \(length) bytes; this authenticator keeps \(limit)")
            }
            guard length >= 17 else {
                throw CTAPError(.invalidParameter, "a serialized large-blob array is at least 17 bytes")
            }
            write = LargeBlobWrite(expectedLength: length)
        } else {
            guard length == nil else {
                throw CTAPError(.invalidParameter, "only the first fragment carries a length")
            }
            guard let pending = largeBlobWrite, offset == pending.expectedNextOffset else {
                throw CTAPError(.invalidSequence, "offset \(offset) is not where the array being written goes on")
            }
            write = pending
        }
        if try await largeBlobWritesNeedAToken() {
            var message = [UInt8](repeating: 0xFF, count: 32) + [0x0C, 0x00]
            message += withUnsafeBytes(of: UInt32(truncatingIfNeeded: offset).littleEndian) { Array($0) }
            message += SHA256Digest.hash(fragment)
            try authorize(
                .largeBlobWrite, rpID: nil, message: message, parameters: parameters, paramKey: 5, protocolKey: 6)
        }
        guard fragment.count <= write.expectedLength - offset else {
            throw CTAPError(.invalidParameter, "the fragment runs past the announced \(write.expectedLength) bytes")
        }
        write.buffer += fragment
        guard write.buffer.count == write.expectedLength else {
            largeBlobWrite = write
            return
        }
        largeBlobWrite = nil
        let array = write.buffer.dropLast(16)
        guard SHA256Digest.hash(array).prefix(16).elementsEqual(write.buffer.suffix(16)) else {
            throw CTAPError(.integrityFailure, "the large-blob array's hash does not match it")
        }
        let serialized = write.buffer
        try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.setLargeBlobs(serialized)
        }
    }

    /// Whether a `set` needs a pinUvAuthToken (§6.10.2): while a PIN or built-in user
    /// verification protects the device, or alwaysUv is on.
    private func largeBlobWritesNeedAToken() async throws(CTAPError) -> Bool {
        let state = try await deviceState()
        return isProtected(state) || state.alwaysUv
    }

    /// Empties the large-blob array and drops a write in progress, for authenticatorReset
    /// (CTAP 2.1 §6.6: the array is part of what a reset removes).
    func clearLargeBlobs() async throws(CTAPError) {
        largeBlobWrite = nil
        guard authenticator.info.maxSerializedLargeBlobArray != nil else {
            return
        }
        try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.setLargeBlobs(LargeBlobArray.empty.serialized)
        }
    }
}

extension CBOR {
    /// An unsigned count (offsets, lengths); one too large for `Int` reads as `Int.max`, which
    /// every limit refuses.
    ///
    /// - Throws: `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` for anything but an unsigned integer.
    func ctapCount(_ name: String) throws(CTAPError) -> Int {
        guard case .unsigned(let value) = self else {
            throw CTAPError(.cborUnexpectedType, "\(name) is not an unsigned integer")
        }
        return Int(exactly: value) ?? .max
    }
}
