/// A TPM object's public area, `TPMT_PUBLIC` (TPM 2.0 Part 2 §12.2.4): what a `tpm` attestation
/// statement's `pubArea` holds (WebAuthn L3 §8.3), reduced to what verification compares.
struct TPMTPublic {
    /// The object's key: `parameters` and `unique` together.
    enum Key: Equatable {
        /// `TPM_ALG_RSA`: the modulus and the exponent, big-endian, without leading zeros.
        case rsa(modulus: [UInt8], exponent: [UInt8])
        /// `TPM_ALG_ECC`: the curve and the point.
        case ecc(curve: COSECurve, x: [UInt8], y: [UInt8])
    }

    static let algorithmRSA: UInt16 = 0x0001
    static let algorithmECC: UInt16 = 0x0023
    static let algorithmNull: UInt16 = 0x0010

    /// The algorithm of the object's name (`nameAlg`).
    let nameAlgorithm: MessageDigest
    let nameAlgorithmID: UInt16
    let key: Key
    /// The encoded structure, to hash into the object's name.
    let bytes: [UInt8]

    /// Parses `pubArea`, all of it.
    ///
    /// - Throws: `invalid-attestation-statement` for a truncated structure, trailing bytes, an
    ///   algorithm, hash or curve this verifier does not know.
    init(bytes: [UInt8]) throws(WebAuthnError) {
        var reader = ByteReader(bytes[...], subject: "tpm pubArea", code: .invalidAttestationStatement)
        let type = try reader.readUInt16("type")
        nameAlgorithmID = try reader.readUInt16("nameAlg")
        nameAlgorithm = try Self.hash(nameAlgorithmID, "nameAlg")
        try reader.skip(4, "objectAttributes")
        try reader.skip(Int(try reader.readUInt16("authPolicy size")), "authPolicy")
        try Self.skipScheme(&reader, "symmetric", withKeyBits: true)
        switch type {
        case Self.algorithmRSA:
            try Self.skipScheme(&reader, "scheme")
            try reader.skip(2, "keyBits")
            let exponent = try reader.readUInt32("exponent")
            let modulus = try reader.read(Int(try reader.readUInt16("unique size")), "unique")
            key = .rsa(
                modulus: Self.minimal(modulus),
                exponent: Self.minimal(exponent == 0 ? [0x01, 0x00, 0x01] : Self.bigEndian(exponent)))
        case Self.algorithmECC:
            try Self.skipScheme(&reader, "scheme")
            let curveID = try reader.readUInt16("curveID")
            try Self.skipScheme(&reader, "kdf")
            let x = try reader.read(Int(try reader.readUInt16("unique.x size")), "unique.x")
            let y = try reader.read(Int(try reader.readUInt16("unique.y size")), "unique.y")
            key = .ecc(curve: try Self.curve(curveID), x: Array(x), y: Array(y))
        default:
            throw WebAuthnError(.invalidAttestationStatement, "tpm pubArea type 0x\(Hex.encode(Self.bigEndian(type)))")
        }
        guard reader.isAtEnd else {
            throw WebAuthnError(.invalidAttestationStatement, "tpm pubArea has trailing bytes", offset: reader.offset)
        }
        self.bytes = bytes
    }

    /// Whether this is the same key as a credential public key (§8.3 step 2).
    func isKey(_ credentialKey: COSEKey) -> Bool {
        switch (key, credentialKey.parameters) {
        case (.rsa(let modulus, let exponent), .rsa(let n, let e)):
            modulus == Self.minimal(n[...]) && exponent == Self.minimal(e[...])
        case (.ecc(let curve, let x, let y), .ec2(let keyCurve, let keyX, let keyY)):
            curve == keyCurve && x == keyX && y == keyY
        default: false
        }
    }

    /// A `TPM_ALG_ID` of a hash (TPM 2.0 Part 2 §6.3).
    static func hash(_ id: UInt16, _ what: String) throws(WebAuthnError) -> MessageDigest {
        switch id {
        case 0x0004: .sha1
        case 0x000B: .sha256
        case 0x000C: .sha384
        case 0x000D: .sha512
        default:
            throw WebAuthnError(
                .invalidAttestationStatement, "tpm \(what) 0x\(Hex.encode(bigEndian(id))) is not a hash")
        }
    }

    /// A `TPM_ECC_CURVE` (TPM 2.0 Part 2 §6.4) as a COSE curve.
    private static func curve(_ id: UInt16) throws(WebAuthnError) -> COSECurve {
        switch id {
        case 0x0003: .p256
        case 0x0004: .p384
        case 0x0005: .p521
        default: throw WebAuthnError(.invalidAttestationStatement, "tpm curveID 0x\(Hex.encode(bigEndian(id)))")
        }
    }

    /// A scheme: its algorithm, then (unless `TPM_ALG_NULL`) its details — key bits and mode of a
    /// symmetric definition, a hash otherwise.
    private static func skipScheme(_ reader: inout ByteReader, _ what: String, withKeyBits: Bool = false)
        throws(WebAuthnError)
    {
        guard try reader.readUInt16(what) != algorithmNull else { return }
        try reader.skip(withKeyBits ? 4 : 2, "\(what) details")
    }

    private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    private static func minimal(_ bytes: some Collection<UInt8>) -> [UInt8] {
        Array(bytes.drop(while: { $0 == 0 }))
    }
}
