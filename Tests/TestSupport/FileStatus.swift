import Foundation

/// The permission bits of a path, as `stat` gives them.
///
/// - Parameter path: a file or directory.
/// - Returns: `st_mode & 0o777`.
/// - Throws: `ENOENT` when the path cannot be examined.
public func permissions(_ path: String) throws -> Int {
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw POSIXError(.ENOENT)
    }
    return Int(info.st_mode & 0o777)
}

/// The modification time of a path to the nanosecond (`st_mtim`), as bytes to compare, to tell
/// whether a file was written again.
///
/// - Parameter path: a file or directory.
/// - Returns: the bytes of its `st_mtim`.
/// - Throws: `ENOENT` when the path cannot be examined.
public func modificationTime(_ path: String) throws -> [UInt8] {
    var info = stat()
    guard stat(path, &info) == 0 else {
        throw POSIXError(.ENOENT)
    }
    return withUnsafeBytes(of: info.st_mtim) { Array($0) }
}
