import WebAuthn

/// The `largeBlob` client extension (WebAuthn L3 §10.1.5) over CTAP 2.1 `largeBlobKey` (§12.3)
/// and the authenticator's large-blob array (§6.10, ``LargeBlobArray``).
///
/// ```
/// dictionary AuthenticationExtensionsLargeBlobInputs {
///     DOMString support;        // creation: "required" or "preferred"
///     boolean read;             // assertion
///     BufferSource write;       // assertion, with exactly one allowed credential
/// };
/// ```
struct LargeBlobExtension {
    enum Support: String {
        case required, preferred
    }

    var support: Support?
    var read = false
    var write: [UInt8]?

    /// Reads the input from the options' other extensions; `nil` when there is none.
    ///
    /// - Throws: `SyntaxError` for a member of the wrong type (the WebIDL conversion).
    init?(_ inputs: AuthenticationExtensionsClientInputsJSON?) throws(WebAuthnClientError) {
        guard let value = inputs?.otherExtensions["largeBlob"] else {
            return nil
        }
        guard let members = value.objectValue else {
            throw WebAuthnClientError(.syntax, "largeBlob is not an object")
        }
        if let support = members["support"] {
            // An unknown value is ignored, as WebIDL's DOMString allows (§10.1.5 reads only these two).
            guard let text = support.stringValue else {
                throw WebAuthnClientError(.syntax, "largeBlob.support is not a string")
            }
            self.support = Support(rawValue: text) ?? .preferred
        }
        if let read = members["read"] {
            guard let bool = read.boolValue else {
                throw WebAuthnClientError(.syntax, "largeBlob.read is not a boolean")
            }
            self.read = bool
        }
        if let write = members["write"] {
            guard let text = write.stringValue, let bytes = try? Base64URL.decode(text) else {
                throw WebAuthnClientError(.syntax, "largeBlob.write is not base64url")
            }
            self.write = bytes
        }
    }

    /// Checks the creation input and says whether to ask for the `largeBlobKey` (§10.1.5,
    /// registration).
    ///
    /// - Throws: `NotSupportedError` for `read` or `write` at creation, or for `support:
    ///   "required"` on an authenticator without large blobs.
    func checkCreation(_ info: AuthenticatorInfo) throws(WebAuthnClientError) -> Bool {
        guard !read, write == nil else {
            throw WebAuthnClientError(.notSupported, "largeBlob.read and largeBlob.write are for assertions")
        }
        let supported = info.maxSerializedLargeBlobArray != nil
        if support == .required, !supported {
            throw WebAuthnClientError(.notSupported, "largeBlob support is required and the authenticator has none")
        }
        return supported
    }

    /// Checks the assertion input and says whether to ask for the `largeBlobKey` (§10.1.5,
    /// authentication).
    ///
    /// - Throws: `NotSupportedError` for `support` at assertion, `read` with `write`, or `write`
    ///   without exactly one allowed credential.
    func checkAssertion(_ info: AuthenticatorInfo, allowList: [[UInt8]]) throws(WebAuthnClientError) -> Bool {
        guard support == nil else {
            throw WebAuthnClientError(.notSupported, "largeBlob.support is for creation")
        }
        guard !(read && write != nil) else {
            throw WebAuthnClientError(.notSupported, "largeBlob reads or writes, not both")
        }
        guard write == nil || allowList.count == 1 else {
            throw WebAuthnClientError(.notSupported, "largeBlob.write needs exactly one credential in allowCredentials")
        }
        return (read || write != nil) && info.maxSerializedLargeBlobArray != nil
    }

    /// The assertion's output: the blob read (absent when the credential has none), or whether
    /// the blob was written; a damaged array reads as empty (CTAP 2.1 §6.10.3).
    func assertionOutput(_ key: SecretKey?, client: WebAuthnClient) async -> JSONValue {
        let authenticator = client.authenticator
        guard let write else {
            guard let key, let blob = try? await authenticator.largeBlob(key: key) else {
                return .object([:])
            }
            return .object(["blob": .string(Base64URL.encode(blob))])
        }
        guard let key, (try? await authenticator.setLargeBlob(write, key: key)) != nil else {
            return .object(["written": .bool(false)])
        }
        return .object(["written": .bool(true)])
    }
}
