import Glibc
import SystemPackage

/// Flags for creating a file with ``OpenFile``, which is then made with mode 0600.
package struct FileOpenOptions: OptionSet, Sendable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// `O_CREAT`.
    package static let create = FileOpenOptions(rawValue: O_CREAT)
    /// `O_CREAT | O_EXCL`: fails when the file exists.
    package static let exclusive = FileOpenOptions(rawValue: O_CREAT | O_EXCL)
    /// `O_NOFOLLOW`: fails when the path's last component is a symbolic link.
    package static let noFollow = FileOpenOptions(rawValue: O_NOFOLLOW)

    var options: FileDescriptor.OpenOptions { FileDescriptor.OpenOptions(rawValue: rawValue) }

    var permissions: FilePermissions? { contains(.create) ? FilePermissions(rawValue: 0o600) : nil }
}
