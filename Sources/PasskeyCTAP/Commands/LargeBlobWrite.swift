/// A serialized large-blob array arriving in fragments (CTAP 2.1 §6.10.2 `set`): the length the
/// first fragment announced and what has come so far.
///
/// A fragment at offset 0 starts a new one; the array is checked and kept only when the buffer
/// reaches ``expectedLength``.
struct LargeBlobWrite {
    /// The length of the whole array, from the first fragment's `length`.
    let expectedLength: Int
    /// The fragments received, in order.
    var buffer: [UInt8] = []

    /// The offset the next fragment must carry.
    var expectedNextOffset: Int { buffer.count }
}
