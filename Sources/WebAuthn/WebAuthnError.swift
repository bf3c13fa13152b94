/// The one error type of the `WebAuthn` module.
///
/// Every failure, whether bytes that do not parse or a ceremony that does not verify, is a
/// `WebAuthnError` with a machine-readable ``Code`` and a human ``reason``. Verification codes use
/// the vocabulary of the test vectors' `failure.reason` (`wrong-challenge`, `bad-signature`, ...),
/// so a verdict can be compared with a vector's by its code alone.
///
/// Two errors are equal when their codes are equal (``CodedError``); the reason is for people.
public struct WebAuthnError: CodedError, Hashable {
    /// What went wrong, as a stable, kebab-case identifier.
    public struct Code: ErrorCode {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Whether the code reports input that does not parse (as opposed to input that parses
        /// but fails a ceremony check).
        public var isMalformedInput: Bool {
            Self.malformedInput.contains(self)
        }

        // MARK: Decoding

        /// CBOR that does not follow RFC 8949's grammar.
        public static let malformedCBOR = Code(rawValue: "malformed-cbor")
        /// Input that ends in the middle of an item.
        public static let truncated = Code(rawValue: "truncated")
        /// Bytes left over after a complete item where none may follow.
        public static let trailingBytes = Code(rawValue: "trailing-bytes")
        /// A CBOR map that has the same key twice (RFC 8949 §5.6).
        public static let duplicateMapKey = Code(rawValue: "duplicate-map-key")
        /// Nesting or size beyond the decoder's limits.
        public static let limitExceeded = Code(rawValue: "limit-exceeded")
        /// A string that is not base64url (RFC 4648 §5) or not hex.
        public static let malformedEncoding = Code(rawValue: "malformed-encoding")
        /// JSON that does not parse, or lacks a required member.
        public static let malformedJSON = Code(rawValue: "malformed-json")
        /// A COSE_Key that is not well formed (RFC 9052 §7, RFC 9053).
        public static let malformedCOSEKey = Code(rawValue: "malformed-cose-key")
        /// Authenticator data that does not follow WebAuthn L3 §6.1.
        public static let malformedAuthenticatorData = Code(rawValue: "malformed-authenticator-data")
        /// Collected client data that is not the JSON of WebAuthn L3 §5.8.1.
        public static let malformedClientData = Code(rawValue: "malformed-client-data")
        /// An attestation object that does not follow WebAuthn L3 §6.5.
        public static let malformedAttestationObject = Code(rawValue: "malformed-attestation-object")
        /// An X.509 certificate or PEM block that does not parse.
        public static let malformedCertificate = Code(rawValue: "malformed-certificate")

        // MARK: Keys and cryptography

        /// A COSE algorithm this library does not implement.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupported-algorithm")
        /// Key material that OpenSSL rejects (off the curve, wrong size, ...).
        public static let invalidKey = Code(rawValue: "invalid-key")
        /// Sealed data that does not open: a wrong key or passphrase, or tampered bytes.
        public static let decryptionFailed = Code(rawValue: "decryption-failed")
        /// Input whose length the algorithm cannot take: AES-CBC without padding needs whole
        /// blocks and a 16-byte IV.
        public static let invalidLength = Code(rawValue: "invalid-length")
        /// A failure inside the cryptographic library itself.
        public static let cryptoFailure = Code(rawValue: "crypto-failure")

        // MARK: Relying-party verification (WebAuthn L3 §7.1, §7.2)

        /// A response whose credential `type` is not `public-key`: it is not the
        /// `PublicKeyCredential` (WebAuthn L3 §5.1) that §7.1 and §7.2 verify.
        public static let wrongCredentialType = Code(rawValue: "wrong-credential-type")
        public static let wrongClientDataType = Code(rawValue: "wrong-client-data-type")
        public static let wrongChallenge = Code(rawValue: "wrong-challenge")
        public static let wrongOrigin = Code(rawValue: "wrong-origin")
        public static let crossOriginNotAllowed = Code(rawValue: "cross-origin-not-allowed")
        public static let wrongTopOrigin = Code(rawValue: "wrong-top-origin")
        public static let wrongRPID = Code(rawValue: "wrong-rp-id")
        public static let wrongRPIDHash = Code(rawValue: "wrong-rp-id-hash")
        public static let unsupportedTokenBindingStatus = Code(rawValue: "unsupported-token-binding-status")
        public static let upFlagMissing = Code(rawValue: "up-flag-missing")
        public static let uvRequiredButNotSet = Code(rawValue: "uv-required-but-not-set")
        public static let backupStateWithoutEligibility = Code(rawValue: "backup-state-without-eligibility")
        public static let backupEligibilityChanged = Code(rawValue: "backup-eligibility-changed")
        public static let attestedCredentialDataMissing = Code(rawValue: "attested-credential-data-missing")
        public static let algorithmNotAllowed = Code(rawValue: "algorithm-not-allowed")
        public static let unsupportedAttestationFormat = Code(rawValue: "unsupported-attestation-format")
        public static let invalidAttestationStatement = Code(rawValue: "invalid-attestation-statement")
        public static let badAttestationSignature = Code(rawValue: "bad-attestation-signature")
        public static let attestationCertificateRequirements = Code(
            rawValue: "attestation-certificate-requirements")
        public static let attestationCertAAGUIDMismatch = Code(rawValue: "attestation-cert-aaguid-mismatch")
        public static let untrustedAttestationRoot = Code(rawValue: "untrusted-attestation-root")
        /// FIDO metadata says the authenticator was revoked or its keys or user verification are
        /// compromised (FIDO MDS 3.0 §3.1.4).
        public static let authenticatorCompromised = Code(rawValue: "authenticator-compromised")
        /// A metadata BLOB whose signature or certificate chain does not verify.
        public static let untrustedMetadata = Code(rawValue: "untrusted-metadata")
        /// A metadata BLOB that is not a JWS of the MDS 3 payload.
        public static let malformedMetadata = Code(rawValue: "malformed-metadata")
        public static let credentialNotAllowed = Code(rawValue: "credential-not-allowed")
        public static let userHandleMismatch = Code(rawValue: "user-handle-mismatch")
        public static let userHandleMissing = Code(rawValue: "user-handle-missing")
        public static let badSignature = Code(rawValue: "bad-signature")
        public static let signCountNotIncreased = Code(rawValue: "sign-count-not-increased")

        private static let malformedInput: Set<Code> = [
            .malformedCBOR, .truncated, .trailingBytes, .duplicateMapKey, .limitExceeded, .malformedEncoding,
            .malformedJSON, .malformedCOSEKey, .malformedAuthenticatorData, .malformedClientData,
            .malformedAttestationObject, .malformedCertificate, .malformedMetadata,
        ]
    }

    /// What went wrong.
    public let code: Code
    /// Why, in words fit for a terminal. Never contains key material.
    public let reason: String
    /// Where in the input the problem was found, as a byte offset, when that is known.
    public let offset: Int?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: what went wrong.
    ///   - reason: why, in words fit for a terminal; never key material.
    ///   - offset: the byte offset in the input where the problem was found, if known.
    public init(_ code: Code, _ reason: String, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        if let offset {
            return "\(code): \(reason) (at byte \(offset))"
        }
        return "\(code): \(reason)"
    }

    /// The same error with its offset moved by `base`, for errors raised while reading a part
    /// that starts `base` bytes into a larger input.
    package func shifted(by base: Int) -> Self {
        Self(code, reason, offset: offset.map { $0 + base })
    }

    /// The same error reported under another code, keeping the reason and offset; used when a
    /// part fails to parse and the whole it belongs to is what the caller asked for.
    package func recoded(_ code: Code, _ context: String) -> Self {
        Self(code, "\(context): \(reason)", offset: offset)
    }
}
