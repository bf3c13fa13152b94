import BlockingIO
import Crypto
import Foundation
import PasskeyTenant
import SwiftASN1
import X509

/// A TLS server identity for `localhost` and `127.0.0.1` made for one run: a self-signed P-256
/// certificate, which is also the CA bundle a client trusts (OpenSSL accepts a self-signed
/// certificate of its store as the trust anchor; RFC 5280 §6.1 with a path of one), written to a
/// scratch directory. For a tenant that must be reached at its `https://` issuer, as an upstream
/// identity provider is.
struct LoopbackTLS {
    /// The PEM files, in a scratch directory removed by ``remove()``.
    let scratch: ScratchDirectory
    /// The tenant's TLS settings.
    let tls: TenantTLS
    /// The certificate, as a CA bundle for clients.
    let caBundlePath: String

    init() throws {
        scratch = try ScratchDirectory("passkey-bench-tls", memory: true)
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: name, subject: name,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([
                    .dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])),
                ])
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: .init(key))
        let pem = Array((try certificate.serializeAsPEM().pemString + "\n").utf8)
        try scratch.write("certificate.pem", pem)
        try scratch.write("key.pem", Array((key.pemRepresentation + "\n").utf8))
        caBundlePath = scratch.path + "/certificate.pem"
        tls = TenantTLS(certificateChainPath: caBundlePath, privateKeyPath: scratch.path + "/key.pem")
    }

    func remove() { scratch.remove() }

    /// A TCP port of 127.0.0.1 that nothing listens on now (bound to port 0, read back, closed):
    /// for a tenant whose domain, and so its issuer, names its port before it serves.
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
