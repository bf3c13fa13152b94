import Synchronization

/// The last `DPoP-Nonce` a server sent (RFC 9449 §8, §9), which the next proof carries.
///
/// As Auth0.swift does, one nonce for every server a ``DPoP`` talks to: each response with a
/// `DPoP-Nonce` header, success or error, from the token endpoint or a resource server,
/// replaces it. It lives in memory only; a new process meets the server's `use_dpop_nonce` once
/// and retries with the nonce that comes with it.
final class DPoPNonceStore: Sendable {
    private let nonce = Mutex<String?>(nil)

    /// The nonce to put in the next proof, if any.
    var current: String? { nonce.withLock { $0 } }

    /// Keeps the response's `DPoP-Nonce`, when it has one.
    ///
    /// - Parameter response: any response.
    /// - Returns: whether the response carried a nonce.
    @discardableResult
    func record(_ response: HTTPResponse) -> Bool {
        guard let value = response.header("DPoP-Nonce"), !value.isEmpty else { return false }
        nonce.withLock { $0 = value }
        return true
    }

    /// Forgets the nonce.
    func clear() {
        nonce.withLock { $0 = nil }
    }
}
