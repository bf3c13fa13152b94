// INTERFACE STUB — the CBOR helper replaces the bodies with libcbor.

extension CBOR {
    /// How much a decoder accepts before it gives up (a hostile input must not exhaust memory or stack).
    public struct DecodingLimits: Sendable, Hashable {
        /// The deepest nesting of arrays, maps and tags.
        public var maxDepth: Int
        /// The largest input, in bytes.
        public var maxBytes: Int

        public init(maxDepth: Int = 16, maxBytes: Int = 1 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
        }
    }

    /// Decodes exactly one item; any byte after it is an error.
    public init(decoding bytes: some Collection<UInt8>, limits: DecodingLimits = .init()) throws(WebAuthnError) {
        fatalError("stub")
    }

    /// Decodes the item at the front of `bytes` and says how many bytes it took, for formats where
    /// more data follows (attested credential data, WebAuthn L3 §6.5.2).
    public static func decodeFirst(
        _ bytes: ArraySlice<UInt8>, limits: DecodingLimits = .init()
    ) throws(WebAuthnError) -> (item: CBOR, consumed: Int) {
        fatalError("stub")
    }

}
