import Glibc
import SystemPackage

/// What an open directory adds: making, listing, removing, renaming and linking its entries by
/// name (`mkdirat`, `readdir`, `unlinkat`, `renameat`, `linkat`), so the directory cannot be
/// swapped between calls.
extension OpenFile {

    /// Makes a directory in this one with mode 0700 (`mkdirat`).
    ///
    /// - Returns: whether it was made; `false` when something already has that name.
    /// - Throws: `Failure`, from the system's error.
    @discardableResult
    package func makeDirectory(_ name: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.mkdirat(descriptor.rawValue, name, 0o700) }) {
        case .success: return true
        case .failure(let errno) where errno == .fileExists: return false
        case .failure(let errno): throw Failure(SystemCallError("mkdir", path + "/" + name, errno))
        }
    }

    /// Makes a directory with mode 0700 unless it is one, and any missing parents.
    ///
    /// - Parameters:
    ///   - path: the directory.
    ///   - parentPermissions: the mode of the parents it makes (less the process's umask): 0700
    ///     for a private tree, 0777 for the process's default.
    /// - Throws: `Failure`, from the system's error.
    package static func makeDirectories(_ path: String, parentPermissions: UInt32 = 0o777) throws(Failure) {
        if let info = try? FilePath(path).stat(), info.type == .directory { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (position, component) in components.enumerated() {
            prefix += "/" + component
            let mode = position == components.count - 1 ? 0o700 : mode_t(parentPermissions)
            if case .failure(let errno) = retrying({ Glibc.mkdir(prefix, mode) }), errno != .fileExists {
                throw Failure(SystemCallError("mkdir", prefix, errno))
            }
        }
    }

    /// The names in this directory, without `.` and `..`.
    ///
    /// - Throws: `Failure`, from the system's error.
    package func entries() throws(Failure) -> [String] {
        let copy = Glibc.dup(descriptor.rawValue)
        guard copy >= 0, let stream = Glibc.fdopendir(copy) else {
            let errno = Errno(rawValue: Glibc.errno)
            if copy >= 0 { Glibc.close(copy) }
            throw Failure(SystemCallError("opendir", path, errno))
        }
        defer { Glibc.closedir(stream) }
        Glibc.rewinddir(stream)
        var names: [String] = []
        while let entry = Glibc.readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." {
                names.append(name)
            }
        }
        return names
    }

    /// Removes a file of this directory (`unlinkat`).
    ///
    /// - Returns: whether it existed.
    /// - Throws: `Failure`, from the system's error.
    @discardableResult
    package func remove(_ name: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.unlinkat(descriptor.rawValue, name, 0) }) {
        case .success: return true
        case .failure(let errno) where errno == .noSuchFileOrDirectory: return false
        case .failure(let errno): throw Failure(SystemCallError("unlink", path + "/" + name, errno))
        }
    }

    /// Renames an entry of this directory over another (`renameat`); atomic for any observer:
    /// the target names the old file or the new one, never neither (POSIX `rename`).
    ///
    /// - Throws: `Failure`, from the system's error.
    func rename(_ name: String, to target: String) throws(Failure) {
        if case .failure(let errno) = Self.retrying({
            Glibc.renameat(descriptor.rawValue, name, descriptor.rawValue, target)
        }) {
            throw Failure(SystemCallError("rename", path + "/" + target, errno))
        }
    }

    /// Links an entry of this directory to a new name (`linkat`), which must not exist.
    ///
    /// - Returns: whether it was linked; `false` when `target` exists.
    /// - Throws: `Failure`, from the system's error.
    func link(_ name: String, to target: String) throws(Failure) -> Bool {
        switch Self.retrying({ Glibc.linkat(descriptor.rawValue, name, descriptor.rawValue, target, 0) }) {
        case .success: return true
        case .failure(let errno) where errno == .fileExists: return false
        case .failure(let errno): throw Failure(SystemCallError("link", path + "/" + target, errno))
        }
    }
}
