/// Reading a small file whole by its path: what the credentials storage needs besides a
/// directory's ``OpenFile``. Its calls block, as OpenFile's do.
package enum SmallFile {
    /// The bytes of the file at `path`, or `nil` when it does not exist.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes read; a longer file is an error with
    ///     ``SystemCallError/isOverLimit``.
    /// - Throws: ``SystemCallError``.
    package static func read(_ path: String, limit: Int) throws(SystemCallError) -> [UInt8]? {
        try OpenFile<SystemCallError>(openingIfExists: path, .readOnly)?.readAll(limit: limit)
    }
}
