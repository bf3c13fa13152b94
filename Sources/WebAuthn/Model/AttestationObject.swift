/// An attestation object (WebAuthn L3 §6.5.4): the authenticator data of a new credential and
/// the statement that vouches for it.
///
/// ```
/// attObj = { "fmt": text, "attStmt": { * text => any }, "authData": bytes }
/// ```
///
/// Built objects are CTAP2 canonical (key order `fmt`, `attStmt`, `authData`), as platform
/// authenticators emit them. Parsed objects keep their bytes in ``bytes``.
public struct AttestationObject: Sendable, Hashable {
    /// The attestation statement format identifier (`fmt`, WebAuthn L3 §8).
    public let format: AttestationFormat
    /// The attestation statement (`attStmt`), a CBOR map whose shape `format` defines.
    public let statement: CBOR
    /// The authenticator data (`authData`).
    public let authenticatorData: AuthenticatorData
    /// The CBOR encoding.
    public let bytes: [UInt8]

    /// Parses an attestation object.
    ///
    /// - Throws: `WebAuthnError.Code.malformedAttestationObject` naming what is wrong (the
    ///   underlying CBOR or authenticator-data error is kept in the reason, with its offset).
    public init(bytes: some Collection<UInt8>) throws(WebAuthnError) {
        let bytes = Array(bytes)
        let object: CBOR
        do {
            object = try CBOR(decoding: bytes)
        } catch {
            throw error.recoded(.malformedAttestationObject, "attestation object")
        }
        guard object.mapValue != nil else {
            throw WebAuthnError(.malformedAttestationObject, "an attestation object is a CBOR map")
        }
        guard let fmt = object["fmt"]?.textValue else {
            throw WebAuthnError(.malformedAttestationObject, "attestation object has no text fmt")
        }
        guard let statement = object["attStmt"], statement.mapValue != nil else {
            throw WebAuthnError(.malformedAttestationObject, "attestation object has no attStmt map")
        }
        guard let authData = object["authData"]?.bytesValue else {
            throw WebAuthnError(.malformedAttestationObject, "attestation object has no authData byte string")
        }
        // WebAuthn L3 §6.5.4: the authData of an attestation object carries the new credential.
        // Checked before parsing, because AT clear over attested bytes would otherwise read as
        // mere trailing garbage.
        if authData.count > 32, authData[32] & AuthenticatorFlags.attestedCredentialData.rawValue == 0 {
            throw WebAuthnError(.attestedCredentialDataMissing, "authData has AT clear: no new credential in it")
        }
        do {
            authenticatorData = try AuthenticatorData(bytes: authData)
        } catch {
            throw error.recoded(.malformedAttestationObject, "authData")
        }
        format = AttestationFormat(rawValue: fmt)
        self.statement = statement
        self.bytes = bytes
    }

    /// Builds an attestation object.
    ///
    /// - Parameters:
    ///   - format: the statement format.
    ///   - statement: the statement, a CBOR map (`[:]` for `none`).
    ///   - authenticatorData: authenticator data with attested credential data.
    public init(format: AttestationFormat, statement: CBOR, authenticatorData: AuthenticatorData) {
        self.format = format
        self.statement = statement
        self.authenticatorData = authenticatorData
        self.bytes = Self.encoded(format: format, statement: statement, authenticatorData: authenticatorData.bytes)
    }

    /// The CTAP2 canonical encoding of `{"fmt": format, "attStmt": statement, "authData":
    /// authenticatorData}`, written into one buffer: the keys' canonical order is their length's
    /// (CTAP 2.1 §8), and only the statement goes through the encoder (`none`'s empty map not even
    /// that).
    private static func encoded(format: AttestationFormat, statement: CBOR, authenticatorData: [UInt8]) -> [UInt8] {
        let statementBytes = statement == .map([:]) ? [0xA0] : statement.encoded()
        let format = format.rawValue.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(40 + format.count + statementBytes.count + authenticatorData.count)
        CBOR.appendHead(major: 5, 3, to: &bytes)
        CBOR.append(text: "fmt".utf8, to: &bytes)
        CBOR.append(text: format, to: &bytes)
        CBOR.append(text: "attStmt".utf8, to: &bytes)
        bytes += statementBytes
        CBOR.append(text: "authData".utf8, to: &bytes)
        CBOR.append(bytes: authenticatorData, to: &bytes)
        return bytes
    }
}

/// An attestation statement format identifier (WebAuthn L3 §8, IANA "WebAuthn Attestation
/// Statement Format Identifiers"): an open set of strings (see ``OpenStringEnumeration``).
public typealias AttestationFormat = OpenStringEnumeration<AttestationFormatValues>

extension AttestationFormat {
    /// No attestation (§8.7).
    public static var none: Self { Self(rawValue: "none") }
    /// Packed attestation (§8.2): self or with an x5c chain.
    public static var packed: Self { Self(rawValue: "packed") }
    /// TPM attestation (§8.3).
    public static var tpm: Self { Self(rawValue: "tpm") }
    /// Android Key attestation (§8.4).
    public static var androidKey: Self { Self(rawValue: "android-key") }
    /// Android SafetyNet attestation (§8.5).
    public static var androidSafetyNet: Self { Self(rawValue: "android-safetynet") }
    /// FIDO U2F attestation (§8.6).
    public static var fidoU2F: Self { Self(rawValue: "fido-u2f") }
    /// Apple Anonymous attestation (§8.8).
    public static var apple: Self { Self(rawValue: "apple") }
}
