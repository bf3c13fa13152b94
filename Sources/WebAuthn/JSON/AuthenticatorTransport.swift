/// How a client may reach an authenticator (WebAuthn L3 §5.8.4).
///
/// ```
/// enum AuthenticatorTransport { "usb", "nfc", "ble", "smart-card", "hybrid", "internal" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public struct AuthenticatorTransport: OpenStringEnumeration {
    /// The wire string.
    public let rawValue: String

    /// Wraps a wire string, known or not.
    ///
    /// - Parameter rawValue: the string as it appears in the JSON.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Removable USB.
    public static let usb: Self = "usb"

    /// Near Field Communication.
    public static let nfc: Self = "nfc"

    /// Bluetooth Low Energy.
    public static let ble: Self = "ble"

    /// ISO/IEC 7816 smart card with contacts.
    public static let smartCard: Self = "smart-card"

    /// Data transport and proximity mechanisms combined, for example a phone's passkey.
    public static let hybrid: Self = "hybrid"

    /// A platform authenticator inside the client device.
    public static let `internal`: Self = "internal"
}
