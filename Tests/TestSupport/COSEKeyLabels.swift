public import WebAuthn

/// A COSE_Key as the vector files print it (RFC 9052 §7): a JSON object whose member names are
/// the labels, bare (`"-1"`, the PRF vectors) or with the extractor's note (`"-1 (crv_or_n)"`,
/// the W3C vectors' `credentialPublicKey_params`), and whose values are integers or byte
/// strings in hex. Members without a label (`alg_name`) are left out.
public struct COSEKeyLabels: Decodable, Sendable {
    /// The integer members by label: `kty` (1), `alg` (3), an EC2 or OKP `crv` (-1).
    public private(set) var integers: [Int: Int] = [:]
    /// The byte-string members by label: `x` (-2) and `y` (-3), or an RSA key's `n` (-1) and `e` (-2).
    public private(set) var bytes: [Int: [UInt8]] = [:]

    public init(from decoder: any Decoder) throws {
        for (name, value) in try decoder.singleValueContainer().decode([String: JSONValue].self) {
            guard let label = Int(name.prefix { $0 != " " }) else {
                continue
            }
            if let number = value.numberValue, let integer = Int(exactly: number) {
                integers[label] = integer
            } else if let text = value.stringValue {
                bytes[label] = try Hex.decode(text)
            }
        }
    }

    /// The key as the CBOR map `COSEKey(cbor:)` reads.
    public var cbor: CBOR {
        var map: [CBOR: CBOR] = [:]
        for (label, value) in integers {
            map[CBOR(label)] = CBOR(value)
        }
        for (label, value) in bytes {
            map[CBOR(label)] = .bytes(value)
        }
        return .map(map)
    }
}
