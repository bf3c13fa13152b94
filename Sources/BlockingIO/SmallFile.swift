import Glibc

/// Reading a small file whole, and making a private directory: what the credentials storage
/// needs besides ``DurableFile``. Its calls block, as DurableFile's do.
package enum SmallFile {
    /// The bytes of the file at `path`, or `nil` when it does not exist.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - limit: the most bytes read; a longer file is an error with `EFBIG`.
    /// - Throws: ``SystemCallError``.
    package static func read(_ path: String, limit: Int) throws(SystemCallError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw SystemCallError("open", path)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallError("read", path)
            }
            if count == 0 { return bytes }
            bytes += chunk.prefix(count)
            guard bytes.count <= limit else { throw SystemCallError("read", path, number: EFBIG) }
        }
    }

    /// Makes `path` a directory with mode 0700 if it is not one, and its missing parents with
    /// mode 0700 too.
    ///
    /// - Throws: ``SystemCallError``.
    package static func makePrivateDirectory(_ path: String) throws(SystemCallError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            try makePrivateDirectory(String(path[..<slash]))
        }
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw SystemCallError("mkdir", path)
        }
    }
}
