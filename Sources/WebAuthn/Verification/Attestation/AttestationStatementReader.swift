/// Reads the members of an attestation statement (`attStmt`, a CBOR map) that a format's syntax
/// defines (WebAuthn L3 §8.x "Syntax"), naming the format and member in every error.
struct AttestationStatementReader {
    let statement: CBOR
    let format: AttestationFormat

    init(_ statement: CBOR, format: AttestationFormat) throws(WebAuthnError) {
        guard statement.mapValue != nil else {
            throw WebAuthnError(.invalidAttestationStatement, "\(format) attStmt is not a map")
        }
        self.statement = statement
        self.format = format
    }

    /// A byte-string member.
    func bytes(_ key: String) throws(WebAuthnError) -> [UInt8] {
        guard let value = statement[key]?.bytesValue else { throw missing(key, "a byte string") }
        return value
    }

    /// An integer member.
    func integer(_ key: String) throws(WebAuthnError) -> Int {
        guard let value = statement[key]?.intValue else { throw missing(key, "an integer") }
        return value
    }

    /// A text member.
    func text(_ key: String) throws(WebAuthnError) -> String {
        guard let value = statement[key]?.textValue else { throw missing(key, "a text string") }
        return value
    }

    /// `x5c`: a non-empty array of DER certificates, leaf first, each parsed (once per distinct
    /// array, by ``AttestationInput/certificates(_:failure:)``).
    func certificates(_ key: String = "x5c", of input: AttestationInput) throws(WebAuthnError) -> TrustPath {
        guard let array = statement[key]?.arrayValue, !array.isEmpty else {
            throw missing(key, "a non-empty array of certificates")
        }
        var ders: [[UInt8]] = []
        for element in array {
            guard let der = element.bytesValue else { throw missing(key, "an array of byte strings") }
            ders.append(der)
        }
        return try input.certificates(ders) { index, error in
            error.recoded(.invalidAttestationStatement, "\(format) \(key)[\(index)]")
        }
    }

    private func missing(_ key: String, _ kind: String) -> WebAuthnError {
        WebAuthnError(.invalidAttestationStatement, "\(format) attStmt member \(key) is not \(kind)")
    }
}

extension X509Certificate {
    /// Whether the certificate's subject public key is `key` (the same key material; the COSE
    /// algorithm aside), as §8.4 step 3 and §8.8 step 5 ask of the credential public key.
    func holds(_ key: COSEKey) -> Bool {
        guard let subjectKey = try? publicKey(algorithm: nil) else { return false }
        return subjectKey.parameters == key.parameters
    }
}
