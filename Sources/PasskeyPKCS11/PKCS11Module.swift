import CPKCS11
import Dispatch
import Glibc
import Synchronization
import WebAuthn

/// A PKCS#11 module (a `.so` that implements Cryptoki: SoftHSM2, tpm2-pkcs11, OpenSC, a vendor's
/// HSM library), loaded with `dlopen` and initialized once for the process (PKCS#11 2.40 §5.4
/// `C_GetFunctionList`, `C_Initialize` with `CKF_OS_LOCKING_OK`).
///
/// A module is process-wide state; ``load(_:)`` keeps one instance per path, and the process
/// finalizes it (`C_Finalize`) as it exits, before the libraries' own exit-time cleanup: a module
/// left initialized may crash in its destructors (SoftHSM2 does when OpenSSL 3's `atexit` cleanup
/// has already run, about one exit in ten with a session open).
public final class PKCS11Module: @unchecked Sendable {
    /// The module's path.
    public let path: String
    /// The module's function list, valid while the module is loaded (always, once loaded).
    let functions: UnsafeMutablePointer<CK_FUNCTION_LIST>
    /// Where every call to the module runs, one at a time: modules that claim OS locking still
    /// fail under concurrent object creation (SoftHSM2's file store answers CKR_GENERAL_ERROR).
    let queue: DispatchQueue

    private static let loaded = LoadedModules()
    /// SHA-256 of the PIN each slot was logged in with by this process.
    private let logins = Mutex<[CK_SLOT_ID: [UInt8]]>([:])

    private init(path: String, functions: UnsafeMutablePointer<CK_FUNCTION_LIST>) {
        self.path = path
        self.functions = functions
        self.queue = DispatchQueue(label: "PKCS11Module \(path)")
    }

    /// The module at `path`, loaded and initialized on first use.
    ///
    /// - Parameter path: the module's file, for example `/usr/lib/softhsm/libsofthsm2.so`.
    /// - Throws: ``PKCS11Error`` with `module-unavailable` when the file cannot be loaded, has no
    ///   `C_GetFunctionList`, or its `C_Initialize` fails.
    public static func load(_ path: String) throws(PKCS11Error) -> PKCS11Module {
        try loaded.module(path) { () throws(PKCS11Error) in try open(path) }
    }

    private static func open(_ path: String) throws(PKCS11Error) -> PKCS11Module {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw PKCS11Error(.moduleUnavailable, "cannot load \(path): \(reason)")
        }
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            throw PKCS11Error(.moduleUnavailable, "\(path) has no C_GetFunctionList: not a PKCS#11 module")
        }
        typealias GetFunctionList =
            @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CK_FUNCTION_LIST>?>?)
            -> CK_RV
        let getFunctionList = unsafeBitCast(symbol, to: GetFunctionList.self)
        var list: UnsafeMutablePointer<CK_FUNCTION_LIST>?
        let value = getFunctionList(&list)
        guard value == CKR_OK, let list else {
            throw PKCS11Error(.moduleUnavailable, "C_GetFunctionList of \(path) returned \(PKCS11Error.name(value))")
        }
        var arguments = CK_C_INITIALIZE_ARGS()
        arguments.flags = CK_FLAGS(CKF_OS_LOCKING_OK)
        let initialized = withUnsafeMutablePointer(to: &arguments) { list.pointee.C_Initialize($0) }
        guard initialized == CKR_OK || initialized == CKR_CRYPTOKI_ALREADY_INITIALIZED else {
            throw PKCS11Error(.moduleUnavailable, "C_Initialize of \(path) returned \(PKCS11Error.name(initialized))")
        }
        // Registered after C_Initialize, so it runs before what the module registered there.
        _ = finalizedAtExit
        return PKCS11Module(path: path, functions: list)
    }

    /// Registers, once, the `atexit` handler that finalizes every loaded module.
    private static let finalizedAtExit: Void = {
        atexit { PKCS11Module.loaded.finalizeAll() }
    }()

    /// `C_Finalize`, on the module's queue after every call queued there (a released token's
    /// `C_CloseSession` among them), so none is cut short. Called at exit, never from the queue.
    fileprivate func finalize() {
        let functions = functions
        queue.sync { _ = functions.pointee.C_Finalize(nil) }
    }

    /// The slot holding the token labelled `label` (`C_GetSlotList` with a token present, then
    /// `C_GetTokenInfo`; labels are 32 bytes padded with spaces).
    ///
    /// - Throws: ``PKCS11Error`` with `token-not-found` when no present token has the label.
    func slot(tokenLabel label: String) throws(PKCS11Error) -> CK_SLOT_ID {
        var count: CK_ULONG = 0
        try check("C_GetSlotList", functions.pointee.C_GetSlotList(CK_BBOOL(CK_TRUE), nil, &count))
        var slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
        try check("C_GetSlotList", functions.pointee.C_GetSlotList(CK_BBOOL(CK_TRUE), &slots, &count))
        for slot in slots.prefix(Int(count)) {
            var info = CK_TOKEN_INFO()
            guard functions.pointee.C_GetTokenInfo(slot, &info) == CKR_OK else { continue }
            let padded = withUnsafeBytes(of: info.label) { Array($0) }
            let name = String(decoding: padded, as: UTF8.self).trimmingTrailingSpaces()
            if name == label {
                return slot
            }
        }
        throw PKCS11Error(.tokenNotFound, "no token labelled \"\(label)\" in \(path)")
    }

    /// Records the PIN a slot was logged in with (as its SHA-256).
    func recordLogin(_ slot: CK_SLOT_ID, pin: [UInt8]) {
        let digest = SHA256Digest.hash(pin)
        logins.withLock { $0[slot] = digest }
    }

    /// Whether `pin` is the PIN the slot was logged in with; `true` when another part of the
    /// process logged it in, which this module cannot check.
    func loggedIn(_ slot: CK_SLOT_ID, pin: [UInt8]) -> Bool {
        let digest = SHA256Digest.hash(pin)
        return logins.withLock { $0[slot].map { $0 == digest } ?? true }
    }

    /// Throws the error of a call that did not return `CKR_OK`.
    func check(_ function: String, _ value: CK_RV) throws(PKCS11Error) {
        guard value == CKR_OK else {
            throw PKCS11Error.call(function, UInt(value))
        }
    }
}

/// The modules loaded in this process, by path.
private final class LoadedModules: Sendable {
    private let modules = Mutex<[String: PKCS11Module]>([:])

    func module(_ path: String, _ load: () throws(PKCS11Error) -> PKCS11Module) throws(PKCS11Error) -> PKCS11Module {
        try modules.withLock { (modules) throws(PKCS11Error) -> PKCS11Module in
            if let module = modules[path] {
                return module
            }
            let module = try load()
            modules[path] = module
            return module
        }
    }

    /// Finalizes every loaded module (at process exit).
    func finalizeAll() {
        for module in modules.withLock({ Array($0.values) }) {
            module.finalize()
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\0" {
            text = text.dropLast()
        }
        return String(text)
    }
}
