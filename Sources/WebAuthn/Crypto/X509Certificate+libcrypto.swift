private import CCrypto
public import FoundationEssentials

extension X509Certificate {
    /// Parses a DER certificate with `d2i_X509`.
    ///
    /// - Parameter derEncoded: one DER certificate and nothing after it.
    /// - Throws: `WebAuthnError` with `malformed-certificate` when OpenSSL cannot parse it or bytes
    ///   are left over.
    public init(derEncoded: some Collection<UInt8>) throws(WebAuthnError) {
        let der = Array(derEncoded)
        let certificate = try Self.parseX509(der)
        handle = X509Handle(taking: certificate)
        derBytes = der
        version = Int(X509_get_version(certificate)) + 1
        notBefore = try Self.date(X509_get0_notBefore(certificate), "notBefore")
        notAfter = try Self.date(X509_get0_notAfter(certificate), "notAfter")
        let flags = Int32(bitPattern: X509_get_extension_flags(certificate))
        isCertificateAuthority = flags & EXFLAG_BCONS == 0 ? nil : flags & EXFLAG_CA != 0
        subject = Self.names(X509_get_subject_name(certificate))
        hasEmptySubject = X509_NAME_entry_count(X509_get_subject_name(certificate)) == 0
        extensions = try Self.extensions(certificate)
        subjectPublicKeyInfo = try Self.subjectPublicKeyInfo(certificate)
        subjectKeyParameters = Self.subjectKeyParameters(certificate)
    }

    /// Verifies that `leaf` chains to one of `trustAnchors` through `intermediates`, with each
    /// certificate valid at `time` (RFC 5280 §6, OpenSSL's `X509_verify_cert`).
    ///
    /// A trust anchor need not be self-signed: an intermediate CA given as an anchor ends the chain
    /// there (`X509_V_FLAG_PARTIAL_CHAIN`), as WebAuthn metadata often does.
    ///
    /// - Parameters:
    ///   - leaf: the attestation certificate.
    ///   - intermediates: further certificates of `x5c`, in any order.
    ///   - trustAnchors: the roots the relying party trusts for this authenticator.
    ///   - time: the moment at which every certificate must be valid.
    /// - Throws: `WebAuthnError` with `untrusted-attestation-root` and OpenSSL's reason when there
    ///   are no anchors or the chain does not verify.
    public static func verifyChain(
        leaf: X509Certificate, intermediates: [X509Certificate], trustAnchors: [X509Certificate], at time: Date
    ) throws(WebAuthnError) {
        _ = try X509TrustStore(anchors: trustAnchors).verify(leaf: leaf, intermediates: intermediates, at: time)
    }

    /// An owned `X509 *` for DER bytes that it must fill exactly; the caller frees it.
    private static func parseX509(_ der: [UInt8]) throws(WebAuthnError) -> OpaquePointer {
        try der.withUnsafeBufferPointer { (buffer) throws(WebAuthnError) -> OpaquePointer in
            var cursor = buffer.baseAddress
            let certificate = try check(
                d2i_X509(nil, &cursor, buffer.count), .malformedCertificate, "d2i_X509")
            guard cursor == buffer.baseAddress.map({ $0 + buffer.count }) else {
                X509_free(certificate)
                throw WebAuthnError(.malformedCertificate, "certificate DER has trailing bytes")
            }
            return certificate
        }
    }

    /// The validity period (`notBefore`, `notAfter`) of an `X509 *`.
    static func validity(of certificate: OpaquePointer) throws(WebAuthnError) -> (notBefore: Date, notAfter: Date) {
        (try date(X509_get0_notBefore(certificate), "notBefore"), try date(X509_get0_notAfter(certificate), "notAfter"))
    }

    /// An ASN.1 UTCTime or GeneralizedTime as a `Date`, through `ASN1_TIME_to_tm` and `timegm`.
    private static func date(_ time: UnsafePointer<ASN1_TIME>?, _ field: String) throws(WebAuthnError) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else {
            throw libcryptoError(.malformedCertificate, "ASN1_TIME_to_tm(\(field))")
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The attributes of a name, by short name, keeping the first value of each.
    private static func names(_ name: OpaquePointer?) -> [String: String] {
        var attributes: [String: String] = [:]
        for index in 0..<X509_NAME_entry_count(name) {
            let entry = X509_NAME_get_entry(name, index)
            guard let shortName = OBJ_nid2sn(OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry))).map(String.init(cString:)),
                attributes[shortName] == nil
            else {
                continue
            }
            var utf8: UnsafeMutablePointer<UInt8>?
            let length = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(entry))
            guard length >= 0, let utf8 else {
                discardLibcryptoErrors()
                continue
            }
            defer { ccrypto_free(utf8) }
            attributes[shortName] = String(
                decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
        }
        return attributes
    }

    private static func extensions(_ certificate: OpaquePointer) throws(WebAuthnError) -> [Extension] {
        var extensions: [Extension] = []
        for index in 0..<X509_get_ext_count(certificate) {
            let item = X509_get_ext(certificate, index)
            var oid = [CChar](repeating: 0, count: 128)
            let length = OBJ_obj2txt(&oid, Int32(oid.count), X509_EXTENSION_get_object(item), 1)
            guard length > 0, Int(length) < oid.count, let value = X509_EXTENSION_get_data(item) else {
                throw libcryptoError(.malformedCertificate, "extension \(index)")
            }
            extensions.append(
                Extension(
                    oid: String(decoding: oid.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self),
                    critical: X509_EXTENSION_get_critical(item) == 1,
                    value: Array(
                        UnsafeBufferPointer(start: ASN1_STRING_get0_data(value), count: Int(ASN1_STRING_length(value))))
                ))
        }
        return extensions
    }

    /// The subject public key's COSE parameters, from the key OpenSSL decoded with the
    /// certificate (`X509_get0_pubkey`); `nil` when there are none.
    private static func subjectKeyParameters(_ certificate: OpaquePointer) -> COSEKey.Parameters? {
        guard let key = X509_get0_pubkey(certificate), EVP_PKEY_up_ref(key) == 1 else {
            discardLibcryptoErrors()
            return nil
        }
        do {
            return try EVPKey(taking: key).publicCOSEKey(algorithm: nil).parameters
        } catch {
            discardLibcryptoErrors()
            return nil
        }
    }

    private static func subjectPublicKeyInfo(_ certificate: OpaquePointer) throws(WebAuthnError) -> [UInt8] {
        let key = X509_get_X509_PUBKEY(certificate)
        return try derEncoding(.malformedCertificate, "i2d_X509_PUBKEY") { i2d_X509_PUBKEY(key, $0) }
    }
}

/// One parsed certificate (`X509 *`), owned by this object and freed on deinit: an
/// ``X509Certificate``'s OpenSSL representation, which an ``X509TrustStore`` adds as an anchor or
/// verifies as a path by reference. Nothing outside the `…+libcrypto.swift` files sees the pointer.
///
/// `@unchecked Sendable`: the certificate is never modified after init (its extension cache is
/// filled there, by `X509_get_extension_flags`), and OpenSSL 3 lets many verifications read one
/// `X509` at once.
final class X509Handle: @unchecked Sendable {
    /// The `X509 *`.
    let pointer: OpaquePointer

    /// Takes ownership of a certificate a libcrypto call returned.
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }
}
