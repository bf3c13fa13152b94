import CPKCS11
import Dispatch
import Synchronization
public import WebAuthn

/// A logged-in session with one token of a PKCS#11 module, where credential key pairs are made
/// and used and never leave (PKCS#11 2.40 §5.6 sessions, §5.12 key generation, §5.13 signing).
///
/// Each key pair is a token object with `CKA_ID` = the credential ID. The private key is
/// `CKA_SENSITIVE` true and `CKA_EXTRACTABLE` false, so the token refuses its value to anyone.
/// P-256 keys are made with `CKM_EC_KEY_PAIR_GEN` and sign with `CKM_ECDSA` over SHA-256 (the
/// token's `r ‖ s` re-encoded as DER); Ed25519 keys with `CKM_EC_EDWARDS_KEY_PAIR_GEN` and sign with
/// `CKM_EDDSA`, where the token has them.
///
/// Every call to the module runs on the module's dispatch queue, in order, so a session is used by
/// one thread at a time and no call blocks a Swift concurrency thread.
public final class PKCS11Token: @unchecked Sendable {
    /// The module the token is in.
    public let module: PKCS11Module
    /// The token's label.
    public let label: String
    private let session: CK_SESSION_HANDLE
    private let queue: DispatchQueue
    /// Private-key handles found before, by credential ID: a handle stays valid for the session
    /// (PKCS#11 2.40 §4.4.1), and finding one is a search of the token.
    private let privateKeys = Mutex<[[UInt8]: CK_OBJECT_HANDLE]>([:])

    /// The algorithms a token may make keys for.
    public static let algorithms: [COSEAlgorithm] = [.es256, .eddsa]

    private init(module: PKCS11Module, label: String, session: CK_SESSION_HANDLE, queue: DispatchQueue) {
        self.module = module
        self.label = label
        self.session = session
        self.queue = queue
    }

    /// Opens a read-write session with the token labelled `label` and logs the user in.
    ///
    /// - Parameters:
    ///   - module: the module.
    ///   - label: the token's label.
    ///   - pin: the user PIN.
    /// - Throws: ``PKCS11Error`` with `token-not-found`, `wrong-pin`, or `failed`.
    public static func open(module: PKCS11Module, label: String, pin: PKCS11PIN) async throws(PKCS11Error)
        -> PKCS11Token
    {
        let queue = module.queue
        return try await run(on: queue) { () throws(PKCS11Error) in
            let slot = try module.slot(tokenLabel: label)
            let functions = module.functions.pointee
            var session: CK_SESSION_HANDLE = 0
            try module.check(
                "C_OpenSession",
                functions.C_OpenSession(slot, CK_FLAGS(CKF_SERIAL_SESSION | CKF_RW_SESSION), nil, nil, &session))
            var pin = pin.bytes
            defer { for index in pin.indices { pin[index] = 0 } }
            let login = functions.C_Login(session, CK_USER_TYPE(CKU_USER), &pin, CK_ULONG(pin.count))
            // Login is per token for the whole process (PKCS#11 2.40 §5.6): when another session
            // logged in already, the PIN is checked against the one that did.
            guard login == CKR_OK || (login == CKR_USER_ALREADY_LOGGED_IN && module.loggedIn(slot, pin: pin)) else {
                _ = functions.C_CloseSession(session)
                throw login == CKR_USER_ALREADY_LOGGED_IN
                    ? PKCS11Error(.wrongPIN, "C_Login: the token is logged in with another PIN")
                    : PKCS11Error.call("C_Login", UInt(login))
            }
            module.recordLogin(slot, pin: pin)
            return PKCS11Token(module: module, label: label, session: session, queue: queue)
        }
    }

    /// Closes the session on the module's queue, without waiting (a `deinit` may run on a Swift
    /// concurrency thread, which must not block); the module's exit-time `C_Finalize` runs after
    /// it on the same queue.
    deinit {
        let functions = module.functions.pointee
        let session = session
        queue.async { _ = functions.C_CloseSession(session) }
    }

    /// Makes a key pair for a credential on the token.
    ///
    /// - Parameters:
    ///   - id: the credential ID, kept as `CKA_ID` of both keys.
    ///   - algorithm: ES256 or EdDSA.
    /// - Returns: the public key.
    /// - Throws: ``PKCS11Error`` with `unsupported-mechanism` for an algorithm the token lacks.
    public func generateKeyPair(id: [UInt8], algorithm: COSEAlgorithm) async throws(PKCS11Error) -> COSEKey {
        let (mechanismType, keyType, parameters) = try Self.keyGeneration(algorithm)
        let session = session
        let module = module
        return try await Self.run(on: queue) { () throws(PKCS11Error) in
            var mechanism = CK_MECHANISM(mechanism: mechanismType, pParameter: nil, ulParameterLen: 0)
            var publicKey: CK_OBJECT_HANDLE = 0
            var privateKey: CK_OBJECT_HANDLE = 0
            var attributes = Attributes()
            let publicTemplate = [
                attributes.value(CKA_CLASS, CK_OBJECT_CLASS(CKO_PUBLIC_KEY)), attributes.value(CKA_KEY_TYPE, keyType),
                attributes.bool(CKA_TOKEN, true), attributes.bool(CKA_VERIFY, true), attributes.bytes(CKA_ID, id),
                attributes.bytes(CKA_EC_PARAMS, parameters),
            ]
            let privateTemplate = [
                attributes.value(CKA_CLASS, CK_OBJECT_CLASS(CKO_PRIVATE_KEY)), attributes.value(CKA_KEY_TYPE, keyType),
                attributes.bool(CKA_TOKEN, true), attributes.bool(CKA_PRIVATE, true), attributes.bool(CKA_SIGN, true),
                attributes.bool(CKA_SENSITIVE, true), attributes.bool(CKA_EXTRACTABLE, false),
                attributes.bytes(CKA_ID, id),
            ]
            defer { attributes.release() }
            var publicAttributes = publicTemplate
            var privateAttributes = privateTemplate
            try module.check(
                "C_GenerateKeyPair",
                module.functions.pointee.C_GenerateKeyPair(
                    session, &mechanism, &publicAttributes, CK_ULONG(publicAttributes.count), &privateAttributes,
                    CK_ULONG(privateAttributes.count), &publicKey, &privateKey))
            let point = try Self.attribute(CKA_EC_POINT, of: publicKey, session: session, module: module)
            return try Self.coseKey(point: point, algorithm: algorithm)
        }
    }

    /// Signs `message` with the credential's private key, as WebAuthn signatures are encoded
    /// (L3 §6.5.6): for ES256 a DER `Ecdsa-Sig-Value` over SHA-256, for EdDSA the raw 64 bytes.
    ///
    /// - Throws: ``PKCS11Error`` with `key-not-found` when the token has no key with the ID.
    public func sign(_ message: [UInt8], keyID id: [UInt8], algorithm: COSEAlgorithm) async throws(PKCS11Error)
        -> [UInt8]
    {
        let session = session
        let module = module
        return try await Self.run(on: queue) { () throws(PKCS11Error) in
            func found() throws(PKCS11Error) -> CK_OBJECT_HANDLE {
                let key = try Self.find(CKO_PRIVATE_KEY, id: id, session: session, module: module)
                self.privateKeys.withLock { $0[id] = key }
                return key
            }
            var input = algorithm == .es256 ? SHA256Digest.hash(message) : message
            var mechanism = CK_MECHANISM(
                mechanism: CK_MECHANISM_TYPE(algorithm == .es256 ? CKM_ECDSA : CKM_EDDSA), pParameter: nil,
                ulParameterLen: 0)
            let functions = module.functions.pointee
            let key: CK_OBJECT_HANDLE
            if let cached = self.privateKeys.withLock({ $0[id] }) {
                key = cached
            } else {
                key = try found()
            }
            var initialized = functions.C_SignInit(session, &mechanism, key)
            if initialized == CKR_KEY_HANDLE_INVALID || initialized == CKR_OBJECT_HANDLE_INVALID {
                // A cached handle of a key destroyed elsewhere: search again (`key-not-found` if it is gone).
                initialized = functions.C_SignInit(session, &mechanism, try found())
            }
            try module.check("C_SignInit", initialized)
            var length: CK_ULONG = 0
            try module.check("C_Sign", functions.C_Sign(session, &input, CK_ULONG(input.count), nil, &length))
            var signature = [UInt8](repeating: 0, count: Int(length))
            try module.check("C_Sign", functions.C_Sign(session, &input, CK_ULONG(input.count), &signature, &length))
            let raw = Array(signature.prefix(Int(length)))
            return algorithm == .es256 ? ECDSASignature.der(rawSignature: raw) : raw
        }
    }

    /// The credential's public key, read from the token.
    ///
    /// - Throws: ``PKCS11Error`` with `key-not-found` when the token has no key with the ID.
    public func publicKey(keyID id: [UInt8], algorithm: COSEAlgorithm) async throws(PKCS11Error) -> COSEKey {
        let session = session
        let module = module
        return try await Self.run(on: queue) { () throws(PKCS11Error) in
            let key = try Self.find(CKO_PUBLIC_KEY, id: id, session: session, module: module)
            return try Self.coseKey(
                point: Self.attribute(CKA_EC_POINT, of: key, session: session, module: module), algorithm: algorithm)
        }
    }

    /// Destroys both keys of a credential; a key already gone is not an error.
    public func deleteKeyPair(keyID id: [UInt8]) async throws(PKCS11Error) {
        let session = session
        let module = module
        privateKeys.withLock { $0[id] = nil }
        try await Self.run(on: queue) { () throws(PKCS11Error) in
            for objectClass in [CKO_PRIVATE_KEY, CKO_PUBLIC_KEY] {
                guard let key = try? Self.find(objectClass, id: id, session: session, module: module) else { continue }
                try module.check("C_DestroyObject", module.functions.pointee.C_DestroyObject(session, key))
            }
        }
    }

    /// Asks the token for the private key's value (`CKA_VALUE`), which a sensitive,
    /// non-extractable key refuses: the check that a key cannot leave the token.
    ///
    /// - Throws: ``PKCS11Error`` (`CKR_ATTRIBUTE_SENSITIVE` from a token that keeps its promise).
    public func privateKeyValue(keyID id: [UInt8]) async throws(PKCS11Error) -> [UInt8] {
        let session = session
        let module = module
        return try await Self.run(on: queue) { () throws(PKCS11Error) in
            let key = try Self.find(CKO_PRIVATE_KEY, id: id, session: session, module: module)
            return try Self.attribute(CKA_VALUE, of: key, session: session, module: module)
        }
    }

    // MARK: Calls

    /// Runs `body` on `queue` and resumes with its result, leaving the caller's thread free.
    ///
    /// `body` and what it captures (the token, say) are released on the queue before the caller
    /// resumes: released after, they could be the last reference, and a token's `deinit` would
    /// then call the module while the caller, done, lets the process exit under it.
    private static func run<T: Sendable>(
        on queue: DispatchQueue, _ body: @escaping @Sendable () throws(PKCS11Error) -> T
    )
        async throws(PKCS11Error) -> T
    {
        let call = QueuedCall(body)
        let result: Result<T, PKCS11Error> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: call.run()) }
        }
        return try result.get()
    }

    /// The one object of `objectClass` whose `CKA_ID` is `id`.
    private static func find(_ objectClass: UInt, id: [UInt8], session: CK_SESSION_HANDLE, module: PKCS11Module)
        throws(PKCS11Error) -> CK_OBJECT_HANDLE
    {
        var attributes = Attributes()
        defer { attributes.release() }
        var template = [attributes.value(CKA_CLASS, CK_OBJECT_CLASS(objectClass)), attributes.bytes(CKA_ID, id)]
        let functions = module.functions.pointee
        try module.check("C_FindObjectsInit", functions.C_FindObjectsInit(session, &template, CK_ULONG(template.count)))
        defer { _ = functions.C_FindObjectsFinal(session) }
        var object: CK_OBJECT_HANDLE = 0
        var count: CK_ULONG = 0
        try module.check("C_FindObjects", functions.C_FindObjects(session, &object, 1, &count))
        guard count == 1 else {
            throw PKCS11Error(.keyNotFound, "token \(id.count)-byte CKA_ID \(Base64URL.encode(id)): no such key")
        }
        return object
    }

    /// An attribute's value (`C_GetAttributeValue`, length first).
    private static func attribute(
        _ type: UInt, of object: CK_OBJECT_HANDLE, session: CK_SESSION_HANDLE, module: PKCS11Module
    ) throws(PKCS11Error) -> [UInt8] {
        let functions = module.functions.pointee
        var query = CK_ATTRIBUTE(type: CK_ATTRIBUTE_TYPE(type), pValue: nil, ulValueLen: 0)
        try module.check("C_GetAttributeValue", functions.C_GetAttributeValue(session, object, &query, 1))
        var value = [UInt8](repeating: 0, count: Int(query.ulValueLen))
        let status = value.withUnsafeMutableBytes { buffer in
            query.pValue = buffer.baseAddress
            return functions.C_GetAttributeValue(session, object, &query, 1)
        }
        try module.check("C_GetAttributeValue", status)
        return Array(value.prefix(Int(query.ulValueLen)))
    }

    /// The mechanism, key type and `CKA_EC_PARAMS` (the curve's DER OID) of an algorithm.
    private static func keyGeneration(_ algorithm: COSEAlgorithm) throws(PKCS11Error)
        -> (CK_MECHANISM_TYPE, CK_KEY_TYPE, [UInt8])
    {
        switch algorithm {
        case .es256:  // prime256v1, 1.2.840.10045.3.1.7
            return (
                CK_MECHANISM_TYPE(CKM_EC_KEY_PAIR_GEN), CK_KEY_TYPE(CKK_EC),
                [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
            )
        case .eddsa:  // id-Ed25519, 1.3.101.112 (RFC 8410)
            return (
                CK_MECHANISM_TYPE(CKM_EC_EDWARDS_KEY_PAIR_GEN), CK_KEY_TYPE(CKK_EC_EDWARDS),
                [0x06, 0x03, 0x2B, 0x65, 0x70]
            )
        default:
            throw PKCS11Error(.unsupportedMechanism, "a token key is ES256 or EdDSA, not \(algorithm)")
        }
    }

    /// The COSE key of a `CKA_EC_POINT`: the point, DER OCTET STRING-wrapped or raw.
    private static func coseKey(point: [UInt8], algorithm: COSEAlgorithm) throws(PKCS11Error) -> COSEKey {
        var raw = point
        if raw.count >= 2, raw[0] == 0x04, Int(raw[1]) == raw.count - 2 {
            raw = Array(raw.dropFirst(2))
        }
        let cbor: CBOR
        switch algorithm {
        case .es256 where raw.count == 65 && raw[0] == 0x04:
            cbor = [
                1: 2, 3: CBOR(algorithm.rawValue), -1: 1, -2: .bytes(Array(raw[1...32])), -3: .bytes(Array(raw[33...])),
            ]
        case .eddsa where raw.count == 32:
            cbor = [1: 1, 3: CBOR(algorithm.rawValue), -1: 6, -2: .bytes(raw)]
        default:
            throw PKCS11Error(
                .failed, "the token's CKA_EC_POINT (\(point.count) bytes) is not a \(algorithm) public key")
        }
        do {
            return try COSEKey(cbor: cbor)
        } catch {
            throw PKCS11Error(.failed, "the token's public key is not a valid COSE key: \(error.reason)")
        }
    }
}

/// One call to run on a module's queue, which lets go of its body (and of all the body captured)
/// as soon as it has run.
private final class QueuedCall<T: Sendable>: @unchecked Sendable {
    /// Only touched by ``run()``, on the module's queue, once.
    private var body: (@Sendable () throws(PKCS11Error) -> T)?

    init(_ body: @escaping @Sendable () throws(PKCS11Error) -> T) {
        self.body = body
    }

    /// Runs the body and releases it.
    func run() -> Result<T, PKCS11Error> {
        guard let body else { preconditionFailure("a queued PKCS#11 call runs once") }
        self.body = nil
        return Result(catching: body)
    }
}

/// The attribute values of one call's templates, kept alive until ``release()``.
private struct Attributes {
    private var buffers: [UnsafeMutableRawBufferPointer] = []

    mutating func bytes(_ type: UInt, _ value: [UInt8]) -> CK_ATTRIBUTE {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(value.count, 1), alignment: 8)
        buffer.copyBytes(from: value)
        buffers.append(buffer)
        return CK_ATTRIBUTE(
            type: CK_ATTRIBUTE_TYPE(type), pValue: buffer.baseAddress, ulValueLen: CK_ULONG(value.count))
    }

    mutating func value(_ type: UInt, _ value: CK_ULONG) -> CK_ATTRIBUTE {
        bytes(type, withUnsafeBytes(of: value) { Array($0) })
    }

    mutating func bool(_ type: UInt, _ value: Bool) -> CK_ATTRIBUTE {
        bytes(type, [value ? 1 : 0])
    }

    func release() {
        for buffer in buffers { buffer.deallocate() }
    }
}
