import Foundation
import PasskeyAuthenticator
import WebAuthn

/// A PKCS#8 private key file, DER or PEM (`-----BEGIN PRIVATE KEY-----`, RFC 7468 §10), or `-`
/// for standard input; its bytes are wiped once read.
enum PrivateKeyFile {
    /// Reads the key in `path`.
    ///
    /// - Parameters:
    ///   - path: the file, or `-`.
    ///   - rsaAlgorithm: the algorithm an RSA key signs with.
    /// - Throws: `SyntaxError` naming the file when it cannot be read or is not a key.
    static func read(_ path: String, rsaAlgorithm: COSEAlgorithm = .rs256) throws(WebAuthnClientError) -> SigningKey {
        do {
            var bytes = try Input.read(path)
            defer { bytes.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.contains("-----BEGIN PRIVATE KEY-----") {
                let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
                guard let der = Data(base64Encoded: body) else {
                    throw WebAuthnClientError(.syntax, "\(path): the PEM body is not base64")
                }
                return try SigningKey(pkcs8: der, rsaAlgorithm: rsaAlgorithm)
            }
            return try SigningKey(pkcs8: bytes, rsaAlgorithm: rsaAlgorithm)
        } catch let error as WebAuthnClientError {
            throw error
        } catch let error as WebAuthnError {
            throw WebAuthnClientError(.syntax, "\(path): \(error.reason)")
        } catch {
            throw WebAuthnClientError(.syntax, "\(path): \(error)")
        }
    }
}
