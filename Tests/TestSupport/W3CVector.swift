public import Testing
public import WebAuthn

/// A vector file of `Vectors/w3c/` (W3C WebAuthn L3 §16 "Test Vectors"; see `Vectors/README.md`):
/// one registration and its authentication, each as the specification's inputs, the bytes it
/// expects, what the extractor derived from them, and the response JSON a client would send.
/// The one model of these files for every test target; members keep the files' names.
public struct W3CVector: Decodable, Sendable, CustomTestStringConvertible {
    public let id: String
    public let attestation_format: String
    public let registration: Registration
    public let authentication: Authentication?

    /// The vector's `id`, which names a test case.
    public var testDescription: String { id }

    /// What a ceremony starts from; the AAGUID and the credential private key are the
    /// registration's only.
    public struct Inputs: Decodable, Sendable {
        public let rp_id: String
        public let origin: String
        public let challenge_hex: HexBytes
        public let challenge_b64url: String
        public let credential_id_hex: HexBytes
        public let flags_hex: HexBytes
        public let signCount: UInt32
        public let aaguid_hex: HexBytes?
        /// Absent where the specification prints no private key (EdDSA, RSA).
        public let credential_private_key_hex: HexBytes?
    }

    /// The registration ceremony (WebAuthn L3 §7.1).
    public struct Registration: Decodable, Sendable {
        public struct Expected: Decodable, Sendable {
            public let clientDataJSON_hex: HexBytes
            public let attestationObject_hex: HexBytes
            public let authenticatorData_hex: HexBytes
            public let credentialPublicKey_cose_hex: HexBytes
        }
        public struct Derived: Decodable, Sendable {
            public let credentialPublicKey_params: COSEKeyLabels
            public let attStmt: AttestationStatement?
        }
        public let inputs: Inputs
        public let expected: Expected
        public let derived: Derived
        /// `RegistrationResponseJSON`, as `PublicKeyCredential.toJSON()` gives it.
        public let registration_response_json: JSONValue
    }

    /// The authentication ceremony (WebAuthn L3 §7.2) with the registered credential.
    public struct Authentication: Decodable, Sendable {
        public struct Expected: Decodable, Sendable {
            public let authenticatorData_hex: HexBytes
            public let clientDataJSON_hex: HexBytes
            public let signature_hex: HexBytes
        }
        public struct Derived: Decodable, Sendable {
            /// `authenticatorData ‖ SHA-256(clientDataJSON)`, what the signature covers.
            public let signed_data_hex: HexBytes
        }
        public let inputs: Inputs
        public let expected: Expected
        public let derived: Derived
        /// `AuthenticationResponseJSON`, as `PublicKeyCredential.toJSON()` gives it.
        public let authentication_response_json: JSONValue
    }

    /// The attestation statement's certificate path, where it has one.
    public struct AttestationStatement: Decodable, Sendable {
        public let x5c: [HexBytes]?
    }

    /// The vector files of one credential each, by name: every file of `Vectors/w3c/` but the
    /// attestation root and the PRF vectors.
    ///
    /// - Returns: the file names, sorted.
    /// - Throws: when the folder cannot be listed.
    public static func names() throws -> [String] {
        try Vectors.names("w3c", excluding: [W3CAttestationRoot.name, "prf-hmac-secret.json"])
    }

    /// Loads one vector file.
    ///
    /// - Parameter name: the file's name in `Vectors/w3c/` (`none-es256.json`).
    /// - Returns: the vector.
    /// - Throws: when the file cannot be read or decoded.
    public static func load(_ name: String) throws -> W3CVector {
        try Vectors.load(W3CVector.self, "w3c", name)
    }
}

/// `Vectors/w3c/attestation-root-cert.json`: the root the W3C vectors' attestation certificates
/// chain to.
public struct W3CAttestationRoot: Decodable, Sendable {
    public struct SpecValues: Decodable, Sendable {
        public let attestation_ca_cert: HexBytes
    }
    public struct Derived: Decodable, Sendable {
        public let attestation_ca_cert_pem: String
    }
    public let spec_values: SpecValues
    public let derived: Derived

    /// The file's name in `Vectors/w3c/`.
    public static let name = "attestation-root-cert.json"

    /// Loads the file.
    ///
    /// - Returns: the root.
    /// - Throws: when the file cannot be read or decoded.
    public static func load() throws -> W3CAttestationRoot {
        try Vectors.load(W3CAttestationRoot.self, "w3c", name)
    }
}
