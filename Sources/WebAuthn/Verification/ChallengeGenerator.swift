/// Where a relying party's challenges come from (WebAuthn L3 §13.4.3 "Cryptographic Challenges":
/// random, at least 16 bytes, made on the server, never reused).
///
/// A value holding a closure, so that randomness is injected (as every clock and transport of the
/// package is): ``secureRandom(byteCount:)`` draws from ``SecureRandom``; a test, or a run that
/// must repeat itself, passes its own bytes.
///
/// ```swift
/// let fixed = ChallengeGenerator { Array(repeating: 7, count: 32) }
/// ```
public struct ChallengeGenerator: Sendable {
    private let generate: @Sendable () -> [UInt8]

    /// Wraps a function that returns a new challenge at each call.
    ///
    /// - Parameter generate: returns the challenge bytes; at least 16 of them (§13.4.3), and a
    ///   relying party accepts each challenge only once.
    public init(_ generate: @escaping @Sendable () -> [UInt8]) {
        self.generate = generate
    }

    /// Challenges of `byteCount` bytes from ``SecureRandom``.
    ///
    /// 32 bytes by default, as SimpleWebAuthn's `generateChallenge()` makes them.
    ///
    /// - Parameter byteCount: the length; at least 16 (§13.4.3).
    /// - Returns: the generator.
    public static func secureRandom(byteCount: Int = 32) -> ChallengeGenerator {
        precondition(byteCount >= 16, "WebAuthn L3 §13.4.3: a challenge is at least 16 bytes, not \(byteCount)")
        return ChallengeGenerator { SecureRandom.bytes(byteCount) }
    }

    /// A new challenge.
    ///
    /// - Returns: the challenge bytes.
    public func callAsFunction() -> [UInt8] {
        generate()
    }
}
