private import CPSL

extension PublicSuffixList {
    /// The list, loaded once per process and never freed.
    private static let context = PSLContext()

    static func isListedPublicSuffix(_ host: String) -> Bool {
        guard let pointer = context.pointer else {
            return true
        }
        return psl_is_public_suffix(pointer, host) != 0
    }

    static func listedRegistrableDomain(_ host: String) -> String? {
        guard let pointer = context.pointer else {
            return nil
        }
        // The result points into the argument, so it is read before the C string goes away.
        return host.withCString { host in
            psl_registrable_domain(pointer, host).map { String(cString: $0) }
        }
    }
}

/// The one libpsl context of the process: `psl_latest(NULL)`, the newer of the list built into
/// libpsl and the distribution's file (Debian: `/usr/share/publicsuffix`, package
/// `publicsuffix`), so a list updated by the system is used without rebuilding; else
/// `psl_builtin()`.
///
/// `@unchecked Sendable`: libpsl contexts are read-only after loading and safe to query from
/// many threads.
private final class PSLContext: @unchecked Sendable {
    /// The `const psl_ctx_t *`, or `nil` when libpsl has no list at all.
    let pointer: OpaquePointer?
    /// Whether `pointer` came from `psl_latest` and so is ours to free.
    private let owned: Bool

    init() {
        if let latest = psl_latest(nil) {
            pointer = latest
            owned = true
        } else {
            pointer = psl_builtin()
            owned = false
        }
    }

    deinit {
        if owned {
            psl_free(pointer)
        }
    }
}
