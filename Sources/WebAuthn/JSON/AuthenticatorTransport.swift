/// How a client may reach an authenticator (WebAuthn L3 §5.8.4).
///
/// ```
/// enum AuthenticatorTransport { "usb", "nfc", "ble", "smart-card", "hybrid", "internal" };
/// ```
///
/// An open set of strings (see ``OpenStringEnumeration``).
public typealias AuthenticatorTransport = OpenStringEnumeration<AuthenticatorTransportValues>

extension AuthenticatorTransport {
    /// Removable USB.
    public static var usb: Self { "usb" }

    /// Near Field Communication.
    public static var nfc: Self { "nfc" }

    /// Bluetooth Low Energy.
    public static var ble: Self { "ble" }

    /// ISO/IEC 7816 smart card with contacts.
    public static var smartCard: Self { "smart-card" }

    /// Data transport and proximity mechanisms combined, for example a phone's passkey.
    public static var hybrid: Self { "hybrid" }

    /// A platform authenticator inside the client device.
    public static var `internal`: Self { "internal" }
}
