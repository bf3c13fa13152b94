package import SwiftASN1
package import X509

/// An Android key attestation `AuthorizationList` (Android "Key and ID Attestation") holding the
/// tags WebAuthn L3 §8.4 reads, and the `KeyDescription` extension that carries two of them.
package struct AndroidAuthorizationList: Sendable, Hashable {
    /// `purpose [1] EXPLICIT SET OF INTEGER`.
    package var purposes: [Int] = []
    /// `origin [702] EXPLICIT INTEGER`.
    package var origin: Int?
    /// `allApplications [600] EXPLICIT NULL`.
    package var allApplications = false

    package init(purposes: [Int] = [], origin: Int? = nil, allApplications: Bool = false) {
        self.purposes = purposes
        self.origin = origin
        self.allApplications = allApplications
    }

    /// A key generated in the keystore (`KM_ORIGIN_GENERATED`) to sign (`KM_PURPOSE_SIGN`).
    package static let hardwareKey = Self(purposes: [2], origin: 0)

    /// The key description extension (OID 1.3.6.1.4.1.11129.2.1.17): `KeyDescription ::= SEQUENCE
    /// { attestationVersion, attestationSecurityLevel, keyMintVersion, keyMintSecurityLevel,
    /// attestationChallenge OCTET STRING, uniqueId OCTET STRING, softwareEnforced, hardwareEnforced }`.
    package static func keyDescription(
        challenge: [UInt8], software: Self = .init(), tee: Self = .hardwareKey
    ) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { description in
            for _ in 0..<2 {
                try description.serialize(300)  // attestation / KeyMint version
                description.appendPrimitiveNode(identifier: .enumerated) { $0.append(1) }  // TrustedEnvironment
            }
            try description.serialize(ASN1OctetString(contentBytes: ArraySlice(challenge)))
            try description.serialize(ASN1OctetString(contentBytes: []))
            try software.serialize(&description)
            try tee.serialize(&description)
        }
        return Certificate.Extension(
            oid: [1, 3, 6, 1, 4, 1, 11129, 2, 1, 17], critical: false, value: ArraySlice(serializer.serializedBytes))
    }

    package func serialize(_ serializer: inout DER.Serializer) throws {
        try serializer.appendConstructedNode(identifier: .sequence) { list in
            if !purposes.isEmpty {
                try list.serialize(explicitlyTaggedWithTagNumber: 1, tagClass: .contextSpecific) { tagged in
                    try tagged.appendConstructedNode(identifier: .set) { set in
                        for purpose in purposes { try set.serialize(purpose) }
                    }
                }
            }
            if allApplications {
                try list.serialize(explicitlyTaggedWithTagNumber: 600, tagClass: .contextSpecific) { tagged in
                    try tagged.serialize(ASN1Null())
                }
            }
            if let origin {
                try list.serialize(explicitlyTaggedWithTagNumber: 702, tagClass: .contextSpecific) { tagged in
                    try tagged.serialize(origin)
                }
            }
        }
    }
}
