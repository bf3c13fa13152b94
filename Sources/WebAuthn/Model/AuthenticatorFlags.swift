/// The flags byte of authenticator data (WebAuthn L3 §6.1, "flags").
///
/// ```
/// bit 0 UP  user present        bit 4 BS  backup state
/// bit 2 UV  user verified       bit 6 AT  attested credential data included
/// bit 3 BE  backup eligible     bit 7 ED  extension data included
/// ```
/// Bits 1 and 5 are reserved (RFU) and kept as received.
public struct AuthenticatorFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let userPresent = Self(rawValue: 1 << 0)
    public static let userVerified = Self(rawValue: 1 << 2)
    public static let backupEligible = Self(rawValue: 1 << 3)
    public static let backupState = Self(rawValue: 1 << 4)
    public static let attestedCredentialData = Self(rawValue: 1 << 6)
    public static let extensionData = Self(rawValue: 1 << 7)

    private static let names: [(Self, String)] = [
        (.userPresent, "UP"), (.userVerified, "UV"), (.backupEligible, "BE"), (.backupState, "BS"),
        (.attestedCredentialData, "AT"), (.extensionData, "ED"),
    ]

    /// The names of the set flags, in bit order ("UP", "UV", "BE", "BS", "AT", "ED", "RFU1", "RFU2").
    public var names: [String] {
        var names = Self.names.filter { contains($0.0) }.map(\.1)
        if rawValue & 0x02 != 0 { names.append("RFU1") }
        if rawValue & 0x20 != 0 { names.append("RFU2") }
        return names
    }

    /// The set flags by name, for example `UP UV BE BS AT (0x5d)`.
    public var description: String {
        let hex = String(rawValue, radix: 16)
        return (names + ["(0x\(hex.count < 2 ? "0" + hex : hex))"]).joined(separator: " ")
    }
}
