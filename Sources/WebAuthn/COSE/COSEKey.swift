/// A public key in COSE_Key form (RFC 9052 §7), as WebAuthn carries credential public keys
/// (WebAuthn L3 §6.5.1.1).
///
/// ```
/// EC2 (RFC 9053 §7.1.1):  { 1: 2, 3: alg, -1: crv, -2: x, -3: y }
/// OKP (RFC 9053 §7.2):    { 1: 1, 3: alg, -1: crv, -2: x }
/// RSA (RFC 8230 §4):      { 1: 3, 3: alg, -1: n, -2: e }
/// ```
///
/// Decoding accepts the labels in any order and ignores labels it does not use (`kid`, and a
/// private `d`, which is never kept). EC2 coordinates and OKP keys must have exactly the curve's
/// length; keys built from other sources are left-padded to it. Encoding is CTAP2 canonical, so
/// an authenticator's key is byte-identical to what a platform authenticator emits.
public struct COSEKey: Sendable, Hashable {
    /// The key's parameters, one case per key type.
    package enum Parameters: Sendable, Hashable {
        case ec2(curve: COSECurve, x: [UInt8], y: [UInt8])
        case okp(curve: COSECurve, x: [UInt8])
        case rsa(n: [UInt8], e: [UInt8])
    }

    /// The algorithm the key is to be used with (label 3), when the key names one.
    ///
    /// WebAuthn credential public keys always name one; generic COSE keys (RFC 9052 C.7) may not.
    public let algorithm: COSEAlgorithm?
    package let parameters: Parameters

    package init(algorithm: COSEAlgorithm?, parameters: Parameters) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// The key type (label 1).
    public var keyType: COSEKeyType {
        switch parameters {
        case .ec2: .ec2
        case .okp: .okp
        case .rsa: .rsa
        }
    }

    /// The curve (label -1) of an EC2 or OKP key.
    public var curve: COSECurve? {
        switch parameters {
        case .ec2(let curve, _, _), .okp(let curve, _): curve
        case .rsa: nil
        }
    }

    /// Decodes a COSE_Key from its CBOR encoding.
    ///
    /// - Throws: `WebAuthnError` with `malformed-cose-key` for a key that is not well formed,
    ///   `unsupported-algorithm` for an algorithm or curve this library does not implement, or the
    ///   CBOR decoder's error.
    public init(bytes: some Collection<UInt8>) throws(WebAuthnError) {
        try self.init(cbor: CBOR(decoding: bytes))
    }

    /// Reads a COSE_Key from a decoded CBOR map.
    public init(cbor: CBOR) throws(WebAuthnError) {
        guard cbor.mapValue != nil else {
            throw WebAuthnError(.malformedCOSEKey, "a COSE_Key is a CBOR map")
        }
        guard let kty = cbor[1]?.intValue else {
            throw WebAuthnError(.malformedCOSEKey, "COSE_Key has no integer kty (label 1)")
        }
        guard let keyType = COSEKeyType(rawValue: kty) else {
            throw WebAuthnError(.unsupportedAlgorithm, "COSE key type \(kty) is not supported")
        }
        var algorithm: COSEAlgorithm?
        if let alg = cbor[3] {
            guard let value = alg.intValue else {
                throw WebAuthnError(.malformedCOSEKey, "COSE_Key alg (label 3) is not an integer")
            }
            guard let known = COSEAlgorithm(rawValue: value) else {
                throw WebAuthnError(.unsupportedAlgorithm, "COSE algorithm \(value) is not supported")
            }
            guard known.keyType == keyType else {
                throw WebAuthnError(.malformedCOSEKey, "algorithm \(known) does not use \(keyType) keys")
            }
            algorithm = known
        }
        let parameters: Parameters
        switch keyType {
        case .ec2:
            let curve = try Self.curve(cbor, for: .ec2)
            parameters = .ec2(
                curve: curve, x: try Self.coordinate(cbor, label: -2, "x", curve: curve),
                y: try Self.coordinate(cbor, label: -3, "y", curve: curve))
        case .okp:
            let curve = try Self.curve(cbor, for: .okp)
            parameters = .okp(curve: curve, x: try Self.coordinate(cbor, label: -2, "x", curve: curve))
        case .rsa:
            guard let n = cbor[-1]?.bytesValue, let e = cbor[-2]?.bytesValue, !n.isEmpty, !e.isEmpty else {
                throw WebAuthnError(.malformedCOSEKey, "RSA COSE_Key needs byte strings n (-1) and e (-2)")
            }
            parameters = .rsa(n: n, e: e)
        }
        try self.init(checking: algorithm, parameters)
    }

    /// Builds a key from parameters, checking that the algorithm fits the key type and curve.
    package init(checking algorithm: COSEAlgorithm?, _ parameters: Parameters) throws(WebAuthnError) {
        let key = COSEKey(algorithm: algorithm, parameters: parameters)
        if let algorithm, algorithm.keyType != key.keyType {
            throw WebAuthnError(.malformedCOSEKey, "algorithm \(algorithm) does not use \(key.keyType) keys")
        }
        switch (algorithm, key.curve) {
        case (.es256, let curve) where curve != .p256,
            (.es384, let curve) where curve != .p384,
            (.es512, let curve) where curve != .p521,
            (.eddsa, let curve) where curve != .ed25519 && curve != .ed448,
            (.ed25519, let curve) where curve != .ed25519,
            (.ed448, let curve) where curve != .ed448:
            throw WebAuthnError(
                .malformedCOSEKey,
                "algorithm \(algorithm!) does not use curve \(key.curve.map(\.description) ?? "none")")
        default:
            break
        }
        if case .okp(let curve, _) = parameters, curve == .x25519 || curve == .x448 {
            throw WebAuthnError(.unsupportedAlgorithm, "\(curve) is a key-agreement curve, not a signature curve")
        }
        self = key
    }

    /// The COSE_Key as a CBOR map.
    public var cbor: CBOR {
        var map: [CBOR: CBOR] = [1: CBOR(keyType.rawValue)]
        if let algorithm {
            map[3] = CBOR(algorithm.rawValue)
        }
        switch parameters {
        case .ec2(let curve, let x, let y):
            map[-1] = CBOR(curve.rawValue)
            map[-2] = .bytes(x)
            map[-3] = .bytes(y)
        case .okp(let curve, let x):
            map[-1] = CBOR(curve.rawValue)
            map[-2] = .bytes(x)
        case .rsa(let n, let e):
            map[-1] = .bytes(n)
            map[-2] = .bytes(e)
        }
        return .map(map)
    }

    /// The CTAP2 canonical CBOR encoding: ``cbor``'s `encoded()`, written directly. The labels
    /// are one-byte integers, so canonical order is 1, 3, -1, -2, -3 (CTAP 2.1 §8).
    public var bytes: [UInt8] {
        var output: [UInt8] = []
        let parameterCount: Int
        switch parameters {
        case .ec2(_, let x, let y):
            parameterCount = 3
            output.reserveCapacity(20 + x.count + y.count)
        case .okp(_, let x):
            parameterCount = 2
            output.reserveCapacity(16 + x.count)
        case .rsa(let n, let e):
            parameterCount = 2
            output.reserveCapacity(24 + n.count + e.count)
        }
        CBOR.appendHead(major: 5, UInt64((algorithm == nil ? 1 : 2) + parameterCount), to: &output)
        CBOR.append(integer: 1, to: &output)
        CBOR.append(integer: keyType.rawValue, to: &output)
        if let algorithm {
            CBOR.append(integer: 3, to: &output)
            CBOR.append(integer: algorithm.rawValue, to: &output)
        }
        switch parameters {
        case .ec2(let curve, let x, let y):
            CBOR.append(integer: -1, to: &output)
            CBOR.append(integer: curve.rawValue, to: &output)
            CBOR.append(integer: -2, to: &output)
            CBOR.append(bytes: x, to: &output)
            CBOR.append(integer: -3, to: &output)
            CBOR.append(bytes: y, to: &output)
        case .okp(let curve, let x):
            CBOR.append(integer: -1, to: &output)
            CBOR.append(integer: curve.rawValue, to: &output)
            CBOR.append(integer: -2, to: &output)
            CBOR.append(bytes: x, to: &output)
        case .rsa(let n, let e):
            CBOR.append(integer: -1, to: &output)
            CBOR.append(bytes: n, to: &output)
            CBOR.append(integer: -2, to: &output)
            CBOR.append(bytes: e, to: &output)
        }
        return output
    }

    private static func curve(_ cbor: CBOR, for keyType: COSEKeyType) throws(WebAuthnError) -> COSECurve {
        guard let crv = cbor[-1]?.intValue else {
            throw WebAuthnError(.malformedCOSEKey, "\(keyType) COSE_Key has no integer crv (label -1)")
        }
        guard let curve = COSECurve(rawValue: crv) else {
            throw WebAuthnError(.unsupportedAlgorithm, "COSE curve \(crv) is not supported")
        }
        guard curve.keyType == keyType else {
            throw WebAuthnError(.malformedCOSEKey, "curve \(curve) is not an \(keyType) curve")
        }
        return curve
    }

    private static func coordinate(
        _ cbor: CBOR, label: Int, _ name: String, curve: COSECurve
    ) throws(WebAuthnError) -> [UInt8] {
        guard let value = cbor[label]?.bytesValue else {
            throw WebAuthnError(.malformedCOSEKey, "COSE_Key has no byte string \(name) (label \(label))")
        }
        guard value.count == curve.coordinateLength else {
            throw WebAuthnError(
                .malformedCOSEKey, "\(name) is \(value.count) bytes; \(curve) needs \(curve.coordinateLength)")
        }
        return value
    }
}

extension COSEKey {
    /// Left-pads a big-endian integer to `length` bytes, for coordinates taken from sources that
    /// drop leading zeros.
    package static func leftPadded(_ bytes: some Collection<UInt8>, to length: Int) -> [UInt8] {
        let trimmed = bytes.drop(while: { $0 == 0 })
        return [UInt8](repeating: 0, count: max(0, length - trimmed.count)) + trimmed
    }
}
