/// The DER `Ecdsa-Sig-Value` (RFC 3279 §2.2.3) WebAuthn carries (L3 §6.5.6), from the `r ‖ s`
/// a PKCS#11 `CKM_ECDSA` signature is (PKCS#11 2.40 current mechanisms §2.3.1).
///
/// ```
/// Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }
/// ```
enum ECDSASignature {
    /// The DER encoding of `r ‖ s`, each half a big-endian unsigned integer.
    static func der(rawSignature raw: [UInt8]) -> [UInt8] {
        let half = raw.count / 2
        let body = integer(raw.prefix(half)) + integer(raw.suffix(raw.count - half))
        return [0x30] + length(body.count) + body
    }

    /// A DER INTEGER: leading zero bytes dropped, one put back when the high bit is set.
    private static func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var value = Array(bytes.drop(while: { $0 == 0 }))
        if value.isEmpty || value[0] & 0x80 != 0 {
            value.insert(0, at: 0)
        }
        return [0x02] + length(value.count) + value
    }

    private static func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
}
