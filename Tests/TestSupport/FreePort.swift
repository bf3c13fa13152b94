import Foundation

/// A loopback TCP port nothing listens on now: for a server whose configuration must name its
/// port before it listens (a tenant whose domain is `localhost:PORT`).
///
/// The port is free only when asked: a test running in parallel may bind it before the server
/// does, so whoever starts a server on it retries on another port when the bind fails
/// (``UpstreamTenants``). A server that can name its port after it listens binds port 0 instead.
public enum FreePort {
    /// A port bound to `127.0.0.1:0`, read back and closed.
    public static func loopback() throws -> Int {
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
