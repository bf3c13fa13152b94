import FoundationEssentials
public import WebAuthn

/// A Credential Exchange Format export sealed under a passphrase, as `passkey export` writes it
/// by default: the CXF JSON sealed with AES-256-GCM under a key derived with scrypt (RFC 7914),
/// the primitives the file store uses for its own key.
///
/// ```
/// { "format": "softpasskey-sealed-cxf", "version": 1,
///   "scrypt": { "salt": base64url(16 bytes), "n": 32768, "r": 8, "p": 1 },   (as store.json's)
///   "cipher": "A256GCM",
///   "sealed": base64url(nonce ‖ ciphertext ‖ tag) }      associated data "SoftPasskey sealed CXF 1"
/// ```
public enum SealedCredentialExchange {
    /// The envelope's `format` member.
    static let format = "softpasskey-sealed-cxf"
    /// The associated data that binds the ciphertext to this envelope.
    static let context = Array("SoftPasskey sealed CXF 1".utf8)
    /// The largest envelope read: 64 MiB, some 100,000 passkeys.
    public static let sizeLimit = 64 * 1024 * 1024

    struct Envelope: Codable {
        var format: String
        var version: Int
        var scrypt: ScryptParameters
        var cipher: String
        var sealed: Base64URL
    }

    /// Seals an export under `passphrase`.
    ///
    /// - Parameters:
    ///   - exchange: the export.
    ///   - passphrase: the passphrase the reader will need.
    /// - Returns: the envelope's JSON.
    /// - Throws: `StoreError` with `io` when the export cannot be encoded or sealed.
    public static func seal(_ exchange: CredentialExchange, passphrase: Passphrase) throws(StoreError) -> [UInt8] {
        var plaintext = try encode(exchange)
        defer { secureZero(&plaintext) }
        let parameters = ScryptParameters.fresh()
        do {
            let key = try FileCredentialStore.derive(passphrase, parameters)
            let sealed = try AESGCM.seal(plaintext, using: key, authenticating: context)
            let envelope = Envelope(
                format: format, version: 1, scrypt: parameters, cipher: "A256GCM", sealed: Base64URL(sealed))
            return Array(try JSONEncoder().encode(envelope))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.io, "cannot seal the export: \(error)")
        }
    }

    /// The export's CXF JSON, unsealed: what `--insecure-plaintext` writes.
    ///
    /// - Throws: `StoreError` with `io` when it cannot be encoded.
    public static func encode(_ exchange: CredentialExchange) throws(StoreError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(exchange))
        } catch {
            throw StoreError(.io, "cannot encode the export: \(error)")
        }
    }

    /// Reads an export: a sealed envelope, opened with `passphrase`, or plain CXF JSON.
    ///
    /// - Parameters:
    ///   - bytes: the file's content.
    ///   - passphrase: the passphrase it was sealed under; not needed for plain CXF.
    /// - Returns: the export.
    /// - Throws: `StoreError` with `wrong-passphrase` when the envelope does not open (a wrong
    ///   passphrase, or none given), `corrupt` when the file is neither an envelope nor CXF JSON
    ///   or its scrypt cost is out of bounds, `unsupported-version` for an envelope version other
    ///   than 1.
    public static func open(_ bytes: [UInt8], passphrase: Passphrase?) throws(StoreError) -> CredentialExchange {
        guard bytes.count <= sizeLimit else {
            throw StoreError(.corrupt, "an export is at most \(sizeLimit) bytes, not \(bytes.count)")
        }
        let decoder = JSONDecoder()
        guard let envelope = try? decoder.decode(Envelope.self, from: Data(bytes)), envelope.format == format else {
            do {
                return try decoder.decode(CredentialExchange.self, from: Data(bytes))
            } catch {
                throw StoreError(
                    .corrupt, "neither a sealed export nor CXF JSON: \(FileCredentialStore.describe(error))")
            }
        }
        guard envelope.version == 1 else {
            throw StoreError(.unsupportedVersion, "sealed export version \(envelope.version); this reads 1")
        }
        guard envelope.cipher == "A256GCM", envelope.scrypt.isReasonable else {
            throw StoreError(.corrupt, "the sealed export's cipher or scrypt cost is not one this reads")
        }
        guard let passphrase else {
            throw StoreError(.wrongPassphrase, "the export is sealed: give its passphrase")
        }
        var plaintext: [UInt8]
        do {
            plaintext = try AESGCM.open(
                envelope.sealed.bytes, using: try FileCredentialStore.derive(passphrase, envelope.scrypt),
                authenticating: context)
        } catch {
            throw StoreError(.wrongPassphrase, "the export does not open with this passphrase (or was altered)")
        }
        defer { secureZero(&plaintext) }
        do {
            return try decoder.decode(CredentialExchange.self, from: Data(plaintext))
        } catch {
            throw StoreError(.corrupt, "the sealed export is not CXF JSON: \(FileCredentialStore.describe(error))")
        }
    }
}
