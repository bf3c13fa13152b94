import BlockingIO
import CPKCS11
import Foundation
import Glibc

/// The raw baseline of token signing (`passkey-bench --backend pkcs11`): a session of the bench's
/// own with the token, in which one ES256 key, found once, signs a fixed 32-byte digest in a bare
/// `C_SignInit` / `C_Sign` loop (PKCS#11 2.40 §5.13), with nothing of the library around it.
///
/// The module is the one `PasskeyPKCS11` loaded and initialized: `dlopen` of the same path hands
/// back the loaded library and `C_GetFunctionList` the same functions. The session needs no
/// login of its own: login is per token for the whole process (§5.6), and the library's session
/// logged in. Calls run on a thread of their own, one hop per loop, as the library's run on the
/// module's queue; the bench never calls the library at the same time.
final class RawTokenSigner: @unchecked Sendable {  // the handles are used on `thread` only, one call at a time
    private let functions: UnsafeMutablePointer<CK_FUNCTION_LIST>
    private let session: CK_SESSION_HANDLE
    private let key: CK_OBJECT_HANDLE
    private let thread = BlockingExecutor(label: "passkey-bench: raw C_Sign")

    /// Opens a session with the token labelled `label` of the module at `path` and finds the
    /// private key whose `CKA_ID` is `keyID`.
    ///
    /// - Throws: ``BenchError`` naming the call that failed.
    init(module path: String, token label: String, keyID: [UInt8]) throws(BenchError) {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "C_GetFunctionList") else {
            throw BenchError("cannot load the PKCS#11 module \(path)")
        }
        typealias GetFunctionList =
            @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<CK_FUNCTION_LIST>?>?) -> CK_RV
        var list: UnsafeMutablePointer<CK_FUNCTION_LIST>?
        try Self.check("C_GetFunctionList", unsafeBitCast(symbol, to: GetFunctionList.self)(&list))
        guard let list else { throw BenchError("C_GetFunctionList of \(path) gave no functions") }
        functions = list
        session = try Self.openSession(list.pointee, label: label)
        key = try Self.privateKey(list.pointee, session: session, id: keyID)
    }

    deinit {
        _ = functions.pointee.C_CloseSession(session)
    }

    /// Signs the digest `count` times, in one hop to the signer's thread.
    func sign(_ count: Int) async throws(BenchError) {
        try await thread.run { () throws(BenchError) in
            let functions = self.functions.pointee
            var digest = [UInt8](repeating: 0x5A, count: 32)
            var signature = [UInt8](repeating: 0, count: 132)
            for _ in 0..<count {
                var mechanism = CK_MECHANISM(
                    mechanism: CK_MECHANISM_TYPE(CKM_ECDSA), pParameter: nil, ulParameterLen: 0)
                var length = CK_ULONG(signature.count)
                try Self.check("C_SignInit", functions.C_SignInit(self.session, &mechanism, self.key))
                try Self.check("C_Sign", functions.C_Sign(self.session, &digest, 32, &signature, &length))
            }
        }
    }

    /// A read-only session with the present token labelled `label` (labels are 32 bytes, padded
    /// with spaces).
    private static func openSession(_ functions: CK_FUNCTION_LIST, label: String) throws(BenchError)
        -> CK_SESSION_HANDLE
    {
        var count: CK_ULONG = 0
        try check("C_GetSlotList", functions.C_GetSlotList(CK_BBOOL(CK_TRUE), nil, &count))
        var slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
        try check("C_GetSlotList", functions.C_GetSlotList(CK_BBOOL(CK_TRUE), &slots, &count))
        for slot in slots.prefix(Int(count)) {
            var info = CK_TOKEN_INFO()
            guard functions.C_GetTokenInfo(slot, &info) == CKR_OK else { continue }
            let padded = withUnsafeBytes(of: info.label) { String(decoding: $0, as: UTF8.self) }
            guard padded.trimmingCharacters(in: CharacterSet(charactersIn: " \0")) == label else { continue }
            var session: CK_SESSION_HANDLE = 0
            try check("C_OpenSession", functions.C_OpenSession(slot, CK_FLAGS(CKF_SERIAL_SESSION), nil, nil, &session))
            return session
        }
        throw BenchError("no token labelled \"\(label)\"")
    }

    /// The one private key whose `CKA_ID` is `id`.
    private static func privateKey(_ functions: CK_FUNCTION_LIST, session: CK_SESSION_HANDLE, id: [UInt8])
        throws(BenchError) -> CK_OBJECT_HANDLE
    {
        var objectClass = CK_OBJECT_CLASS(CKO_PRIVATE_KEY)
        var id = id
        var object: CK_OBJECT_HANDLE = 0
        var found: CK_ULONG = 0
        let status = withUnsafeMutableBytes(of: &objectClass) { objectClass in
            id.withUnsafeMutableBytes { id in
                var template = [
                    CK_ATTRIBUTE(
                        type: CK_ATTRIBUTE_TYPE(CKA_CLASS), pValue: objectClass.baseAddress,
                        ulValueLen: CK_ULONG(objectClass.count)),
                    CK_ATTRIBUTE(
                        type: CK_ATTRIBUTE_TYPE(CKA_ID), pValue: id.baseAddress, ulValueLen: CK_ULONG(id.count)),
                ]
                let initialized = functions.C_FindObjectsInit(session, &template, CK_ULONG(template.count))
                guard initialized == CKR_OK else { return ("C_FindObjectsInit", initialized) }
                defer { _ = functions.C_FindObjectsFinal(session) }
                return ("C_FindObjects", functions.C_FindObjects(session, &object, 1, &found))
            }
        }
        try check(status.0, status.1)
        guard found == 1 else { throw BenchError("the token has no private key with the credential's ID") }
        return object
    }

    private static func check(_ function: String, _ value: CK_RV) throws(BenchError) {
        guard value == CKR_OK else {
            throw BenchError("\(function) returned 0x\(String(value, radix: 16))")
        }
    }
}
