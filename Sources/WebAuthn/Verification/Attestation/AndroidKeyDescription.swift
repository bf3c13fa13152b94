import SwiftASN1

/// The Android key attestation extension of an `android-key` attestation certificate (OID
/// 1.3.6.1.4.1.11129.2.1.17, Android "Key and ID Attestation" `KeyDescription`), reduced to what
/// WebAuthn L3 §8.4 checks: the challenge and, per authorization list, the tags it names.
struct AndroidKeyDescription {
    /// One `AuthorizationList` (`softwareEnforced` or `hardwareEnforced`, the "teeEnforced" of §8.4).
    struct AuthorizationList {
        /// `purpose [1] EXPLICIT SET OF INTEGER`.
        var purposes: Set<Int> = []
        /// `origin [702] EXPLICIT INTEGER`.
        var origin: Int?
        /// Whether `allApplications [600] EXPLICIT NULL` is present.
        var allApplications = false
    }

    static let oid = "1.3.6.1.4.1.11129.2.1.17"
    /// `KM_PURPOSE_SIGN`.
    static let purposeSign = 2
    /// `KM_ORIGIN_GENERATED`: the key was made inside the secure hardware.
    static let originGenerated = 0

    let attestationChallenge: [UInt8]
    let softwareEnforced: AuthorizationList
    let teeEnforced: AuthorizationList

    /// Reads the extension value `KeyDescription ::= SEQUENCE { attestationVersion,
    /// attestationSecurityLevel, keyMintVersion, keyMintSecurityLevel, attestationChallenge OCTET
    /// STRING, uniqueId OCTET STRING, softwareEnforced AuthorizationList, hardwareEnforced
    /// AuthorizationList }`; tags of an authorization list it does not check are skipped.
    init(derEncoded value: [UInt8]) throws(WebAuthnError) {
        do {
            (attestationChallenge, softwareEnforced, teeEnforced) = try DER.sequence(
                DER.parse(value), identifier: .sequence
            ) { nodes in
                for _ in 0..<4 {  // versions and security levels
                    guard nodes.next() != nil else {
                        throw ASN1Error.invalidASN1Object(reason: "KeyDescription is short")
                    }
                }
                let challenge = try ASN1OctetString(derEncoded: &nodes)
                _ = try ASN1OctetString(derEncoded: &nodes)  // uniqueId
                guard let software = nodes.next(), let hardware = nodes.next() else {
                    throw ASN1Error.invalidASN1Object(reason: "KeyDescription lacks its authorization lists")
                }
                return (Array(challenge.bytes), try Self.list(software), try Self.list(hardware))
            }
        } catch {
            throw WebAuthnError(
                .attestationCertificateRequirements, "the android key description extension is malformed: \(error)")
        }
    }

    private static func list(_ node: ASN1Node) throws -> AuthorizationList {
        guard node.identifier == .sequence, case .constructed(let entries) = node.content else {
            throw ASN1Error.unexpectedFieldType(node.identifier)
        }
        var list = AuthorizationList()
        for entry in entries where entry.identifier.tagClass == .contextSpecific {
            guard case .constructed(let inner) = entry.content, let value = inner.first(where: { _ in true }) else {
                throw ASN1Error.invalidASN1Object(reason: "tag [\(entry.identifier.tagNumber)] is not explicit")
            }
            switch entry.identifier.tagNumber {
            case 1: list.purposes = Set(try DER.set(of: Int.self, identifier: .set, rootNode: value))
            case 600: list.allApplications = true
            case 702: list.origin = try Int(derEncoded: value)
            default: continue
            }
        }
        return list
    }
}
