/// Where a CTAP device keeps what it must remember across power cycles (CTAP 2.1 §6.5.2, §6.11):
/// the PIN, as CTAP keeps it, its retries and the configuration `authenticatorConfig` set.
///
/// ``FileCredentialStore`` keeps it sealed under the store key beside the credentials, so a
/// PIN set through a device over that store survives a restart with its retries counted, and
/// ``InMemoryCredentialStore`` keeps it as long as the process lives. The device reads it once
/// and writes it after every change, before it answers: a wrong PIN is counted even when the
/// client never reads the answer.
public protocol CTAPStateStore: Sendable {
    /// The state as last written; ``CTAPDeviceState/init()`` (no PIN) when none was.
    ///
    /// - Throws: `StoreError` when it cannot be read or does not open under the store key.
    func ctapState() async throws(StoreError) -> CTAPDeviceState

    /// Replaces the state, durably and atomically.
    ///
    /// - Parameter state: the whole state.
    /// - Throws: `StoreError` when it cannot be kept; the previous state then stays.
    func setCTAPState(_ state: CTAPDeviceState) async throws(StoreError)
}

/// The persistent state of a CTAP device (CTAP 2.1 §6.5.2 "authenticator configuration", §6.11).
///
/// ```
/// pinHash        = LEFT(SHA-256(PIN), 16)    ; absent: no PIN set
/// pinCodePoints  = the PIN's length in Unicode code points, for setMinPINLength's check
/// pinRetries     = 0…8                       ; 0: blocked until authenticatorReset
/// uvRetries      = 0…5                       ; built-in UV's; 0: blocked until a correct PIN
/// minPINLength   = 4…63 code points          ; only ever raised, except by Reset
/// forcePINChange, alwaysUv
/// ```
///
/// The three consecutive mismatches that block the PIN until a power cycle are deliberately
/// not here: a power cycle clears them (§6.5.5.5). The hash never prints: `description` and the
/// mirror leave it out (STYLE §5).
public struct CTAPDeviceState: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The retries a new PIN starts with (§6.5.2 `maxPINRetries`).
    public static let maxPINRetries = 8
    /// The retries built-in user verification starts with and returns to after a success or a
    /// correct PIN (§6.5.2 `maxUvRetries`, 1 to 25; 5, as Chromium's virtual authenticator).
    public static let maxUVRetries = 5
    /// The shortest PIN allowed until `setMinPINLength` raises it (§6.5.1: 4 code points).
    public static let defaultMinPINLength = 4

    /// `LEFT(SHA-256(PIN), 16)`, or `nil` when no PIN is set.
    public var pinHash: [UInt8]?
    /// The length of the PIN in Unicode code points (0 without a PIN).
    public var pinCodePoints: Int
    /// The PIN retries left (`pinRetries`).
    public var pinRetries: Int
    /// The built-in user verification retries left (`uvRetries`, §6.5.5.3).
    public var uvRetries: Int
    /// The shortest PIN allowed, in code points.
    public var minPINLength: Int
    /// Whether the PIN must be changed before it gives a token again.
    public var forcePINChange: Bool
    /// Whether every makeCredential and getAssertion needs user verification (§6.11.2).
    public var alwaysUv: Bool

    /// The state of a device no one has configured: no PIN, full retries, the default length.
    public init() {
        pinHash = nil
        pinCodePoints = 0
        pinRetries = Self.maxPINRetries
        uvRetries = Self.maxUVRetries
        minPINLength = Self.defaultMinPINLength
        forcePINChange = false
        alwaysUv = false
    }

    /// Reads a state as written, including one written before `uvRetries` was kept (which starts
    /// with every UV retry).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pinHash = try container.decodeIfPresent([UInt8].self, forKey: .pinHash)
        pinCodePoints = try container.decode(Int.self, forKey: .pinCodePoints)
        pinRetries = try container.decode(Int.self, forKey: .pinRetries)
        uvRetries = try container.decodeIfPresent(Int.self, forKey: .uvRetries) ?? Self.maxUVRetries
        minPINLength = try container.decode(Int.self, forKey: .minPINLength)
        forcePINChange = try container.decode(Bool.self, forKey: .forcePINChange)
        alwaysUv = try container.decode(Bool.self, forKey: .alwaysUv)
    }

    public var description: String {
        "CTAPDeviceState(pin: \(pinHash == nil ? "not set" : "<redacted>"), retries: \(pinRetries), "
            + "uvRetries: \(uvRetries), minPINLength: \(minPINLength), forcePINChange: \(forcePINChange), "
            + "alwaysUv: \(alwaysUv))"
    }

    public var customMirror: Mirror { Mirror(self, children: []) }
}
