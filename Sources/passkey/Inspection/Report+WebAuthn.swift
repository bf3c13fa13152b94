import Foundation
import WebAuthn

/// Reports of the WebAuthn structures: every field by its spec name, bytes in hex or base64url.
extension Report {
    init(registration response: RegistrationResponseJSON) throws {
        add("id", .text(response.id))
        add("type", .text(response.type.rawValue))
        add("authenticatorAttachment", response.authenticatorAttachment.map { .text($0.rawValue) })
        add("transports", response.response.transports.map { .list($0.map { .text($0.rawValue) }) })
        add("publicKeyAlgorithm", response.response.publicKeyAlgorithm.map(Value.number))
        add(
            "clientData",
            .report(try Report(clientData: CollectedClientData(bytes: response.response.clientDataJSON.bytes))))
        add(
            "attestationObject",
            .report(try Report(attestation: AttestationObject(bytes: response.response.attestationObject.bytes))))
    }

    init(authentication response: AuthenticationResponseJSON) throws {
        add("id", .text(response.id))
        add("type", .text(response.type.rawValue))
        add("authenticatorAttachment", response.authenticatorAttachment.map { .text($0.rawValue) })
        add("userHandle", response.response.userHandle.map { .text($0.string) })
        add("signature", .text(Hex.encode(response.response.signature.bytes)))
        add(
            "clientData",
            .report(try Report(clientData: CollectedClientData(bytes: response.response.clientDataJSON.bytes))))
        add(
            "authenticatorData",
            .report(try Report(authenticatorData: AuthenticatorData(bytes: response.response.authenticatorData.bytes))))
    }

    init(clientData: CollectedClientData) {
        add("type", .text(clientData.type.rawValue))
        add("challenge", .text(clientData.challenge))
        add("origin", .text(clientData.origin))
        add("crossOrigin", clientData.crossOrigin.map(Value.flag))
        add("topOrigin", clientData.topOrigin.map(Value.text))
        for (name, value) in clientData.otherMembers.sorted(by: { $0.key < $1.key }) {
            add(name, .text(String(decoding: WebAuthnJSON.encode(value), as: UTF8.self)))
        }
    }

    init(attestation: AttestationObject) throws {
        add("fmt", .text(attestation.format.rawValue))
        if attestation.format == .packed, let statement = try? PackedAttestationStatement(cbor: attestation.statement) {
            var report = Report()
            report.add("alg", Report.algorithm(statement.algorithm))
            report.add("sig", .text(Hex.encode(statement.signature)))
            if !statement.certificates.isEmpty {
                report.add("x5c", .list(statement.certificates.map { .report(Report(certificate: $0)) }))
            }
            add("attStmt", .report(report))
        } else {
            add("attStmt", .text(attestation.statement.description))
        }
        add("authData", .report(Report(authenticatorData: attestation.authenticatorData)))
    }

    init(authenticatorData: AuthenticatorData) {
        add("rpIdHash", .text(Hex.encode(authenticatorData.rpIDHash)))
        add("flags", .list(authenticatorData.flags.names.map(Value.text)))
        add("flagsByte", .text(String(format: "0x%02x", authenticatorData.flags.rawValue)))
        add("signCount", .number(Int(authenticatorData.signCount)))
        if let credential = authenticatorData.attestedCredentialData {
            add("aaguid", .text(credential.aaguid.description))
            add("credentialId", .text(Base64URL.encode(credential.credentialID)))
            add("credentialIdLength", .number(credential.credentialID.count))
            add("credentialPublicKey", .report(Report(coseKey: credential.credentialPublicKey)))
        }
        add("extensions", authenticatorData.extensions.map { .text($0.description) })
    }

    /// A COSE_Key's parameters by name, read generically so that keys of unsupported algorithms
    /// still show.
    init(coseKey bytes: [UInt8]) {
        add("cose", .text(Base64URL.encode(bytes)))
        guard let entries = (try? CBOR(decoding: bytes))?.mapValue else { return }
        let kty = entries[1]?.intValue
        for (label, value) in entries.sorted(by: { Self.labelOrder($0.key, $1.key) }) {
            switch (label.intValue, value) {
            case (1, _):
                add(
                    "kty", .text(value.intValue.flatMap { COSEKeyType(rawValue: $0)?.description } ?? value.description)
                )
            case (3, _): add("alg", value.intValue.map(Report.algorithm) ?? .text(value.description))
            case (-1, .bytes(let n)) where kty == COSEKeyType.rsa.rawValue: add("n", .text(Hex.encode(n)))
            case (-1, _):
                add("crv", .text(value.intValue.flatMap { COSECurve(rawValue: $0)?.description } ?? value.description))
            case (-2, .bytes(let e)) where kty == COSEKeyType.rsa.rawValue: add("e", .text(Hex.encode(e)))
            case (-2, .bytes(let x)): add("x", .text(Hex.encode(x)))
            case (-3, .bytes(let y)): add("y", .text(Hex.encode(y)))
            case (let number?, .bytes(let raw)): add(String(number), .text(Hex.encode(raw)))
            default: add(label.description, .text(value.description))
            }
        }
    }

    init(certificate der: [UInt8]) {
        guard let certificate = try? X509Certificate(derEncoded: der) else {
            add("unparsable", .text(Hex.encode(der)))
            return
        }
        let subject = ["CN", "OU", "O", "C"].compactMap { name in
            certificate.subjectAttribute(name).map { "\(name)=\($0)" }
        }
        add("subject", .text(subject.joined(separator: ", ")))
        add("notBefore", .text(certificate.notBefore.formatted(.iso8601)))
        add("notAfter", .text(certificate.notAfter.formatted(.iso8601)))
        add("length", .number(der.count))
    }

    /// An algorithm identifier with its registry name: `-7 (ES256)`.
    static func algorithm(_ identifier: Int) -> Value {
        .text(COSEAlgorithm(rawValue: identifier).map { "\(identifier) (\($0))" } ?? String(identifier))
    }

    /// COSE labels in the order the specs list them: 1, 2, 3, ... then -1, -2, ...
    private static func labelOrder(_ lhs: CBOR, _ rhs: CBOR) -> Bool {
        switch (lhs.intValue, rhs.intValue) {
        case (let l?, let r?) where (l > 0) != (r > 0): l > 0
        case (let l?, let r?): abs(l) < abs(r)
        default: lhs.description < rhs.description
        }
    }
}
