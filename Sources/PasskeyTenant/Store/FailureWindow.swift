import FoundationEssentials

/// How many failures a key has in the window, and the oldest of them.
struct FailureWindow: Sendable, Equatable {
    var count: Int
    var oldest: Date
}
