/// A COSE algorithm identifier (IANA "COSE Algorithms" registry; RFC 9053, RFC 8230, RFC 8812).
///
/// The cases are the signature algorithms this library can verify, plus ECDH-ES + HKDF-256 (-25),
/// which CTAP 2.1 §6.5.6 writes into key-agreement keys. Only ``signatureAlgorithms`` sign or
/// verify; identifiers outside the set (for example ML-DSA's -48) are reported as
/// `unsupported-algorithm` where they are met.
public enum COSEAlgorithm: Int, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// ECDSA with SHA-256 on P-256 (RFC 9053 §2.1).
    case es256 = -7
    /// EdDSA (RFC 9053 §2.2), Ed25519 or Ed448 by the key's curve.
    case eddsa = -8
    /// EdDSA on Ed25519, fully specified (RFC 9864 §2.2).
    case ed25519 = -19
    /// EdDSA on Ed448, fully specified (RFC 9864 §2.2).
    case ed448 = -53
    /// ECDSA with SHA-384 on P-384.
    case es384 = -35
    /// ECDSA with SHA-512 on P-521.
    case es512 = -36
    /// RSASSA-PSS with SHA-256 (RFC 8230 §2).
    case ps256 = -37
    /// RSASSA-PSS with SHA-384.
    case ps384 = -38
    /// RSASSA-PSS with SHA-512.
    case ps512 = -39
    /// RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8812 §2).
    case rs256 = -257
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = -258
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = -259
    /// RSASSA-PKCS1-v1_5 with SHA-1 (RFC 8812 §2), deprecated: real TPMs sign `tpm` attestation
    /// statements (WebAuthn L3 §8.3) with it, so it verifies those; it is not in
    /// ``signatureAlgorithms`` and a relying party accepts it for a credential only if it lists it.
    case rs1 = -65535
    /// ECDH-ES + HKDF-256 (RFC 9053 §6.3.1). Not a signature algorithm: CTAP 2.1 §6.5.6 labels
    /// the P-256 key-agreement keys of PIN/UV auth protocols with it.
    case ecdhESHKDF256 = -25

    /// The algorithms that sign and verify, but the deprecated ``rs1``: the default allow-list of a
    /// relying party for credential keys.
    public static let signatureAlgorithms: [COSEAlgorithm] = allCases.filter { $0.isSignatureAlgorithm && $0 != .rs1 }

    /// Whether the algorithm is a signature algorithm (every case but ``ecdhESHKDF256``).
    public var isSignatureAlgorithm: Bool {
        self != .ecdhESHKDF256
    }

    /// The registry's name ("ES256", "EdDSA", ...).
    public var description: String {
        switch self {
        case .es256: "ES256"
        case .eddsa: "EdDSA"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        case .es384: "ES384"
        case .es512: "ES512"
        case .ps256: "PS256"
        case .ps384: "PS384"
        case .ps512: "PS512"
        case .rs256: "RS256"
        case .rs384: "RS384"
        case .rs512: "RS512"
        case .rs1: "RS1"
        case .ecdhESHKDF256: "ECDH-ES+HKDF-256"
        }
    }

    /// The key type an algorithm works with (RFC 9053 §7).
    public var keyType: COSEKeyType {
        switch self {
        case .es256, .es384, .es512, .ecdhESHKDF256: .ec2
        case .eddsa, .ed25519, .ed448: .okp
        case .ps256, .ps384, .ps512, .rs256, .rs384, .rs512, .rs1: .rsa
        }
    }
}

/// A COSE key type (RFC 9053 §7, RFC 8230 §4).
public enum COSEKeyType: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    case okp = 1
    case ec2 = 2
    case rsa = 3

    public var description: String {
        switch self {
        case .okp: "OKP"
        case .ec2: "EC2"
        case .rsa: "RSA"
        }
    }
}

/// A COSE elliptic curve (RFC 9053 §7.1).
public enum COSECurve: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    case p256 = 1
    case p384 = 2
    case p521 = 3
    case x25519 = 4
    case x448 = 5
    case ed25519 = 6
    case ed448 = 7

    public var description: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        case .p521: "P-521"
        case .x25519: "X25519"
        case .x448: "X448"
        case .ed25519: "Ed25519"
        case .ed448: "Ed448"
        }
    }

    /// The key type that uses this curve.
    public var keyType: COSEKeyType {
        switch self {
        case .p256, .p384, .p521: .ec2
        case .x25519, .x448, .ed25519, .ed448: .okp
        }
    }

    /// The length in bytes of a coordinate (EC2) or public key (OKP) on this curve.
    public var coordinateLength: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        case .x25519: 32
        case .x448: 56
        case .ed25519: 32
        case .ed448: 57
        }
    }
}
