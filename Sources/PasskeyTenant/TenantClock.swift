public import FoundationEssentials

/// Where the tenant reads the time: session expiry, token `iat`/`exp`, rate-limit windows.
///
/// A value holding a closure, so tests move time by hand instead of sleeping (STYLE §4; as
/// swift-server/webauthn-swift injects its challenge generator).
public struct TenantClock: Sendable {
    /// The current instant.
    public var now: @Sendable () -> Date

    /// Creates a clock reading `now`.
    ///
    /// - Parameter now: returns the current instant.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system's wall clock.
    public static let system = TenantClock { Date() }
}
