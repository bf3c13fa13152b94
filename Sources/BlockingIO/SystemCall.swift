import Glibc
import SystemPackage

/// The package's one loop around a C call that returns -1 and sets `errno`: again while the call
/// is interrupted (`EINTR`), as swift-system does for its own calls. ``OpenFile``,
/// ``DescriptorChannel`` and `InotifyQueue` make their calls through it.
enum SystemCall {
    /// Makes `call` until it is not interrupted.
    ///
    /// - Parameter call: a C call returning -1 on failure (`int` or `ssize_t`).
    /// - Returns: its non-negative result, or the `Errno` of its failure.
    static func retrying<Value: BinaryInteger>(_ call: () -> Value) -> Result<Value, Errno> {
        while true {
            let result = call()
            if result >= 0 { return .success(result) }
            let errno = Errno(rawValue: Glibc.errno)
            if errno != .interrupted { return .failure(errno) }
        }
    }
}
