import Glibc
import SystemPackage

/// How ``OpenFile`` opens a file.
package enum FileOpenMode: Sendable {
    case readOnly, readWrite, writeOnly, directory

    var access: FileDescriptor.AccessMode {
        switch self {
        case .readOnly, .directory: .readOnly
        case .readWrite: .readWrite
        case .writeOnly: .writeOnly
        }
    }

    var options: FileDescriptor.OpenOptions {
        self == .directory ? .directory : []
    }
}
