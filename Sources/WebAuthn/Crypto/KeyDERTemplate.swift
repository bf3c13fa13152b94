/// The exact DER that OpenSSL writes for P-256 and Ed25519 keys, read and written without
/// OpenSSL 3's encoder and decoder framework, which costs about a millisecond per key, more than
/// the signature a ceremony makes with it.
///
/// ```
/// PKCS#8 P-256   30 81 87 02 01 00 30 13 <id-ecPublicKey> <prime256v1> 04 6D 30 6B 02 01 01
///                04 20 d(32) A1 44 03 42 00 04 x(32) y(32)        (RFC 5208 §5, RFC 5915 §3)
/// PKCS#8 Ed25519 30 2E 02 01 00 30 05 06 03 2B 65 70 04 22 04 20 seed(32)   (RFC 8410 §7)
/// SPKI P-256     30 59 30 13 <id-ecPublicKey> <prime256v1> 03 42 00 04 x(32) y(32) (RFC 5480 §2)
/// SPKI Ed25519   30 2A 30 05 06 03 2B 65 70 03 21 00 x(32)                  (RFC 8410 §4)
/// ```
///
/// Anything else (other curves, optional fields, other encodings) goes through OpenSSL as before.
enum KeyDERTemplate {
    private static let ecAlgorithm: [UInt8] = [
        0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D,
        0x03, 0x01, 0x07,
    ]
    private static let p256PKCS8Head: [UInt8] =
        [0x30, 0x81, 0x87, 0x02, 0x01, 0x00] + ecAlgorithm + [0x04, 0x6D, 0x30, 0x6B, 0x02, 0x01, 0x01, 0x04, 0x20]
    private static let p256PKCS8Middle: [UInt8] = [0xA1, 0x44, 0x03, 0x42, 0x00, 0x04]
    private static let ed25519PKCS8Head: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
    private static let p256SPKIHead: [UInt8] = [0x30, 0x59] + ecAlgorithm + [0x03, 0x42, 0x00, 0x04]
    private static let ed25519SPKIHead: [UInt8] = [
        0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]

    /// The raw private key in a PKCS#8 key of one of the two templates: the P-256 scalar or the
    /// Ed25519 seed; `nil` for any other DER.
    static func rawPrivateKey(pkcs8 der: [UInt8]) -> (curve: COSECurve, raw: ArraySlice<UInt8>)? {
        if der.count == p256PKCS8Head.count + 32 + p256PKCS8Middle.count + 64, der.starts(with: p256PKCS8Head),
            der[(p256PKCS8Head.count + 32)...].starts(with: p256PKCS8Middle)
        {
            return (.p256, der[p256PKCS8Head.count..<(p256PKCS8Head.count + 32)])
        }
        if der.count == ed25519PKCS8Head.count + 32, der.starts(with: ed25519PKCS8Head) {
            return (.ed25519, der[ed25519PKCS8Head.count...])
        }
        return nil
    }

    /// The PKCS#8 `PrivateKeyInfo` OpenSSL writes for a P-256 key (with its public point) or an
    /// Ed25519 seed; `nil` for other keys. The caller wipes the result.
    static func pkcs8(rawPrivateKey raw: [UInt8], publicKey parameters: COSEKey.Parameters) -> [UInt8]? {
        switch parameters {
        case .ec2(.p256, let x, let y) where raw.count == 32 && x.count == 32 && y.count == 32:
            p256PKCS8Head + raw + p256PKCS8Middle + x + y
        case .okp(.ed25519, _) where raw.count == 32:
            ed25519PKCS8Head + raw
        default:
            nil
        }
    }

    /// The SubjectPublicKeyInfo of a P-256 or Ed25519 key; `nil` for other keys.
    static func spki(_ parameters: COSEKey.Parameters) -> [UInt8]? {
        switch parameters {
        case .ec2(.p256, let x, let y) where x.count == 32 && y.count == 32:
            p256SPKIHead + x + y
        case .okp(.ed25519, let x) where x.count == 32:
            ed25519SPKIHead + x
        default:
            nil
        }
    }

    /// The key parameters in a SubjectPublicKeyInfo of one of the two templates; `nil` otherwise.
    static func parameters(spki der: some Collection<UInt8>) -> COSEKey.Parameters? {
        let der = Array(der)
        if der.count == p256SPKIHead.count + 64, der.starts(with: p256SPKIHead) {
            let point = der[p256SPKIHead.count...]
            return .ec2(curve: .p256, x: Array(point.prefix(32)), y: Array(point.suffix(32)))
        }
        if der.count == ed25519SPKIHead.count + 32, der.starts(with: ed25519SPKIHead) {
            return .okp(curve: .ed25519, x: Array(der[ed25519SPKIHead.count...]))
        }
        return nil
    }
}
