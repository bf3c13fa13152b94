import Crypto
import Foundation
import SwiftASN1
import X509

extension TestCertificateAuthority {
    /// The PEM files of a loopback HTTPS server whose certificate this root issued.
    public struct ServerFiles: Sendable {
        /// The root certificate: what a client is told to trust (`--cacert`, `SSL_CERT_FILE`).
        public let caCertificate: String
        /// The server's certificate chain, leaf then root (`tenant serve --tls-cert`).
        public let certificateChain: String
        /// The leaf's private key (`tenant serve --tls-key`).
        public let privateKey: String
    }

    /// Issues a TLS server certificate for `localhost` and `127.0.0.1` (RFC 5280 §4.2.1.6 subject
    /// alternative names, §4.2.1.12 `serverAuth`) and writes it, its key and this root as PEM files in
    /// `directory`.
    ///
    /// - Parameter directory: where the three files go.
    /// - Returns: their paths.
    /// - Throws: when a certificate cannot be made or a file written.
    public func serverFiles(in directory: String) throws -> ServerFiles {
        let key = P256.Signing.PrivateKey()
        let leaf = try issue(
            try DistinguishedName { CommonName("localhost") }, publicKey: .init(key.publicKey),
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
                try ExtendedKeyUsage([.serverAuth])
                Critical(KeyUsage(digitalSignature: true))
            })
        let root = try certificate.serializeAsPEM().pemString + "\n"
        let files = ServerFiles(
            caCertificate: directory + "/ca.pem", certificateChain: directory + "/server-chain.pem",
            privateKey: directory + "/server-key.pem")
        try root.write(toFile: files.caCertificate, atomically: true, encoding: .utf8)
        try (try leaf.serializeAsPEM().pemString + "\n" + root)
            .write(toFile: files.certificateChain, atomically: true, encoding: .utf8)
        try (key.pemRepresentation + "\n").write(toFile: files.privateKey, atomically: true, encoding: .utf8)
        return files
    }
}
