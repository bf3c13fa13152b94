import WebAuthn

/// The parameters of one command: a CBOR map keyed by unsigned integers, in CTAP2 canonical form
/// (CTAP 2.1 §8 "Message Encoding", §8.1 "CTAP2 canonical CBOR encoding form").
///
/// ```
/// request = command-byte [ { * uint => any } ]   ; canonical: shortest heads, definite
///                                                 ; lengths, keys sorted, no duplicates
/// ```
///
/// Decoding checks canonical form by re-encoding: libcbor accepts any well-formed item, and the
/// core's encoder always writes the canonical one, so a request whose bytes differ from its
/// re-encoding is not canonical (`CTAP2_ERR_INVALID_CBOR`).
struct CTAPParameters {
    /// The nesting CTAP2 messages need (command map, extensions, hmac-secret, its COSE key) with
    /// room to spare; deeper input is `CTAP2_ERR_INVALID_CBOR` (§8: "MAY reject … depth").
    static let maxDepth = 8

    private let values: [UInt64: CBOR]

    /// Parses the bytes after the command byte; none is an empty map.
    ///
    /// - Throws: `CTAP2_ERR_INVALID_CBOR` (malformed, not canonical, too deep, trailing bytes),
    ///   `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` (not a map, or a key that is not an unsigned integer).
    init(_ bytes: ArraySlice<UInt8>) throws(CTAPError) {
        guard !bytes.isEmpty else {
            values = [:]
            return
        }
        let item: CBOR
        do {
            item = try CBOR(decoding: bytes, limits: .init(maxDepth: Self.maxDepth, maxBytes: bytes.count))
        } catch {
            throw CTAPError(.invalidCBOR, "the parameters are not CBOR: \(error.reason)")
        }
        guard item.encoded().elementsEqual(bytes) else {
            throw CTAPError(.invalidCBOR, "the parameters are not in CTAP2 canonical CBOR form")
        }
        guard let map = item.mapValue else {
            throw CTAPError(.cborUnexpectedType, "the parameters are not a CBOR map")
        }
        var values: [UInt64: CBOR] = [:]
        for (key, value) in map {
            guard case .unsigned(let number) = key else {
                throw CTAPError(.cborUnexpectedType, "a parameter key is not an unsigned integer")
            }
            values[number] = value
        }
        self.values = values
    }

    /// The parameter under `key`, if present.
    subscript(key: UInt64) -> CBOR? { values[key] }

    /// The parameter under `key`.
    ///
    /// - Throws: `CTAP2_ERR_MISSING_PARAMETER` naming it.
    func required(_ key: UInt64, _ name: String) throws(CTAPError) -> CBOR {
        guard let value = values[key] else {
            throw CTAPError(.missingParameter, "\(name) (0x\(String(key, radix: 16))) is missing")
        }
        return value
    }

    /// The `options` map under `key` (§6.1 0x07, §6.2 0x05): text keys, boolean values; unknown
    /// options are kept for the command to ignore.
    ///
    /// - Throws: `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` for a non-text key or a non-boolean value.
    func options(_ key: UInt64) throws(CTAPError) -> [String: Bool] {
        guard let item = values[key] else { return [:] }
        var options: [String: Bool] = [:]
        for (name, value) in try item.ctapMap("options") {
            options[try name.ctapText("an option name")] = try value.ctapBool("option")
        }
        return options
    }

    /// The credential IDs of a `PublicKeyCredentialDescriptor` list under `key` (`excludeList`,
    /// `allowList`; WebAuthn L3 §5.8.3): descriptors of a type other than `public-key` are skipped.
    ///
    /// - Throws: `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` or `CTAP2_ERR_MISSING_PARAMETER` for a
    ///   malformed descriptor.
    func credentialIDs(_ key: UInt64, _ name: String) throws(CTAPError) -> [[UInt8]] {
        guard let item = values[key] else { return [] }
        var ids: [[UInt8]] = []
        for descriptor in try item.ctapArray(name) {
            _ = try descriptor.ctapMap(name)
            let type = try descriptor.ctapMember("type", of: name).ctapText("\(name).type")
            let id = try descriptor.ctapMember("id", of: name).ctapBytes("\(name).id")
            if type == "public-key" { ids.append(id) }
        }
        return ids
    }
}

/// Typed access to request items: a wrong type is `CTAP2_ERR_CBOR_UNEXPECTED_TYPE` (CTAP 2.1 §8).
extension CBOR {
    func ctapBytes(_ name: String) throws(CTAPError) -> [UInt8] {
        guard let value = bytesValue else { throw Self.unexpected(name, "a byte string") }
        return value
    }

    func ctapText(_ name: String) throws(CTAPError) -> String {
        guard let value = textValue else { throw Self.unexpected(name, "a text string") }
        return value
    }

    func ctapBool(_ name: String) throws(CTAPError) -> Bool {
        guard let value = boolValue else { throw Self.unexpected(name, "a boolean") }
        return value
    }

    func ctapInt(_ name: String) throws(CTAPError) -> Int {
        guard let value = intValue else { throw Self.unexpected(name, "an integer") }
        return value
    }

    func ctapArray(_ name: String) throws(CTAPError) -> [CBOR] {
        guard let value = arrayValue else { throw Self.unexpected(name, "an array") }
        return value
    }

    func ctapMap(_ name: String) throws(CTAPError) -> [CBOR: CBOR] {
        guard let value = mapValue else { throw Self.unexpected(name, "a map") }
        return value
    }

    /// The member `key` of a text-keyed map (`rp`, `user`, descriptors, options).
    ///
    /// - Throws: `CTAP2_ERR_MISSING_PARAMETER` when absent.
    func ctapMember(_ key: String, of name: String) throws(CTAPError) -> CBOR {
        guard let value = self[key] else { throw CTAPError(.missingParameter, "\(name).\(key) is missing") }
        return value
    }

    private static func unexpected(_ name: String, _ type: String) -> CTAPError {
        CTAPError(.cborUnexpectedType, "\(name) is not \(type)")
    }
}
