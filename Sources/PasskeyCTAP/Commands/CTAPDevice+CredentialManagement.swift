import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// The subcommands of authenticatorCredentialManagement (CTAP 2.1 §6.8).
    enum CredentialManagementSubcommand: Int {
        case getCredsMetadata = 0x01
        case enumerateRPsBegin = 0x02
        case enumerateRPsGetNextRP = 0x03
        case enumerateCredentialsBegin = 0x04
        case enumerateCredentialsGetNextCredential = 0x05
        case deleteCredential = 0x06
        case updateUserInformation = 0x07
    }

    /// How many more discoverable credentials getCredsMetadata says fit (§6.8.2
    /// `maxPossibleRemainingResidentCredentialsCount`): a credential store sets no limit, so it is
    /// what a 32-bit count has left.
    static let discoverableCredentialCapacity = Int(UInt32.max)

    /// `authenticatorCredentialManagement` (CTAP 2.1 §6.8, and its `FIDO_2_1_PRE` prototype 0x41,
    /// §6.13): the discoverable credentials of ``credentials``, listed by RP and changed, each
    /// subcommand but the `GetNext…` ones authorized by a pinUvAuthToken with the `cm` permission.
    ///
    /// ```
    /// request  = { 0x01 subCommand: uint, ? 0x02 subCommandParams: { ? 0x01 rpIDHash: bytes,
    ///              ? 0x02 credentialID: PublicKeyCredentialDescriptor,
    ///              ? 0x03 user: PublicKeyCredentialUserEntity },
    ///              ? 0x03 pinUvAuthProtocol: uint, ? 0x04 pinUvAuthParam: bytes }
    /// pinUvAuthParam = authenticate(pinUvAuthToken, subCommand ‖ subCommandParams)
    /// response = { ? 0x01 existingResidentCredentialsCount: uint,
    ///              ? 0x02 maxPossibleRemainingResidentCredentialsCount: uint,
    ///              ? 0x03 rp: {"id": text}, ? 0x04 rpIDHash: bytes, ? 0x05 totalRPs: uint,
    ///              ? 0x06 user, ? 0x07 credentialID, ? 0x08 publicKey: COSE_Key,
    ///              ? 0x09 totalCredentials: uint, ? 0x0A credProtect: uint, ? 0x0B largeBlobKey: bytes }
    /// ```
    ///
    /// A token bound to an RP (§6.5.5.7) may enumerate, delete and update only that RP's
    /// credentials, and may not read the metadata or the list of RPs.
    ///
    /// - Parameters:
    ///   - parameters: the request.
    ///   - enumeration: what the previous command left to enumerate, if anything.
    /// - Returns: the response map, or `nil` for deleteCredential and updateUserInformation.
    /// - Throws: `CTAP1_ERR_INVALID_COMMAND` without a credential store or a PIN,
    ///   `CTAP2_ERR_INVALID_SUBCOMMAND`, `CTAP2_ERR_MISSING_PARAMETER`, the statuses of
    ///   ``authorize(_:rpID:message:parameters:paramKey:protocolKey:)``,
    ///   `CTAP2_ERR_NO_CREDENTIALS`, `CTAP2_ERR_NOT_ALLOWED` for a `GetNext…` with nothing
    ///   pending, `CTAP1_ERR_INVALID_PARAMETER` for a user whose ID is not the credential's.
    func credentialManagement(_ parameters: CTAPParameters, continuing enumeration: CredentialEnumeration?)
        async throws(CTAPError) -> CBOR?
    {
        guard let credentials, managesCredentials else {
            throw CTAPError(.invalidCommand, "this device has no credential store, or no PIN to authorize managing it")
        }
        let number = try parameters.required(1, "subCommand").ctapInt("subCommand")
        guard let subcommand = CredentialManagementSubcommand(rawValue: number) else {
            throw CTAPError(.invalidSubcommand, "credentialManagement subcommand \(number) does not exist")
        }
        let subcommandParameters = try parameters[2]?.ctapMap("subCommandParams") ?? [:]
        let message = [UInt8(number)] + (parameters[2]?.encoded() ?? [])
        switch subcommand {
        case .getCredsMetadata:
            try authorizeCredentialManagement(parameters, message: message, rpIDHash: nil)
            let count = try await Self.discoverable(in: credentials).count
            return [1: CBOR(count), 2: CBOR(max(0, Self.discoverableCredentialCapacity - count))]
        case .enumerateRPsBegin:
            try authorizeCredentialManagement(parameters, message: message, rpIDHash: nil)
            let rpIDs = Set(try await Self.discoverable(in: credentials).map(\.rpID)).sorted()
            guard let first = rpIDs.first else {
                throw CTAPError(.noCredentials, "no discoverable credential is stored")
            }
            if rpIDs.count > 1 {
                credentialEnumeration = .relyingParties(Array(rpIDs.dropFirst()))
            }
            return .map(Self.relyingParty(first).merging([5: CBOR(rpIDs.count)]) { $1 })
        case .enumerateRPsGetNextRP:
            guard case .relyingParties(let rpIDs) = enumeration, let next = rpIDs.first else {
                throw CTAPError(.notAllowed, "no enumeration of RPs is in progress")
            }
            if rpIDs.count > 1 {
                credentialEnumeration = .relyingParties(Array(rpIDs.dropFirst()))
            }
            return .map(Self.relyingParty(next))
        case .enumerateCredentialsBegin:
            let rpIDHash = try Self.member(subcommandParameters, 1, "rpIDHash").ctapBytes("rpIDHash")
            try authorizeCredentialManagement(parameters, message: message, rpIDHash: rpIDHash)
            let found = try await Self.discoverable(in: credentials).filter {
                SHA256Digest.hash(Array($0.rpID.utf8)) == rpIDHash
            }
            guard let first = found.first else {
                throw CTAPError(.noCredentials, "no discoverable credential of that RP is stored")
            }
            if found.count > 1 {
                credentialEnumeration = .credentials(Array(found.dropFirst()))
            }
            return .map(try await describe(first).merging([9: CBOR(found.count)]) { $1 })
        case .enumerateCredentialsGetNextCredential:
            guard case .credentials(let found) = enumeration, let next = found.first else {
                throw CTAPError(.notAllowed, "no enumeration of credentials is in progress")
            }
            if found.count > 1 {
                credentialEnumeration = .credentials(Array(found.dropFirst()))
            }
            return .map(try await describe(next))
        case .deleteCredential:
            let stored = try await credential(subcommandParameters, parameters, message: message, in: credentials)
            try await Self.storing { () async throws(StoreError) in try await credentials.delete(id: stored.id) }
            return nil
        case .updateUserInformation:
            let user = try Self.member(subcommandParameters, 3, "user")
            _ = try user.ctapMap("user")
            var stored = try await credential(subcommandParameters, parameters, message: message, in: credentials)
            // §6.8.6: the user ID cannot change; an absent or empty name or displayName is removed.
            guard try user.ctapMember("id", of: "user").ctapBytes("user.id") == stored.userHandle else {
                throw CTAPError(.invalidParameter, "user.id is not the credential's user handle")
            }
            stored.userName = try user["name"]?.ctapText("user.name") ?? ""
            stored.userDisplayName = try user["displayName"]?.ctapText("user.displayName") ?? ""
            let updated = stored
            try await Self.storing { () async throws(StoreError) in try await credentials.update(updated) }
            return nil
        }
    }

    /// Whether the device has authenticatorCredentialManagement: a credential store, and a PIN
    /// whose tokens can authorize it (§6.8 has no subcommand without one).
    var managesCredentials: Bool { credentials != nil && supportsClientPIN }

    /// Authorizes a subcommand with a `cm` pinUvAuthToken (§6.8.2–§6.8.6): over every RP when
    /// `rpIDHash` is `nil` (the token must then be bound to none), else over the RP it hashes
    /// (the token must be bound to none or to that one). Credential management never binds a token.
    private func authorizeCredentialManagement(_ parameters: CTAPParameters, message: [UInt8], rpIDHash: [UInt8]?)
        throws(CTAPError)
    {
        try authorize(
            .credentialManagement, rpID: nil, message: message, parameters: parameters, paramKey: 4, protocolKey: 3)
        // §6.8.2, §6.8.3: a token bound to an RP reads no metadata and no list of RPs; §6.8.4–§6.8.6:
        // it touches only its RP's credentials.
        if let bound = pin.token?.rpID, rpIDHash != SHA256Digest.hash(Array(bound.utf8)) {
            throw CTAPError(.pinAuthInvalid, "the pinUvAuthToken is bound to an RP this subcommand does not act for")
        }
    }

    /// The discoverable credential `credentialID` names (§6.8.5, §6.8.6), after authorizing the
    /// subcommand for its RP.
    private func credential(
        _ subcommandParameters: [CBOR: CBOR], _ parameters: CTAPParameters, message: [UInt8],
        in credentials: any CredentialStore
    ) async throws(CTAPError) -> StoredCredential {
        let descriptor = try Self.member(subcommandParameters, 2, "credentialID")
        _ = try descriptor.ctapMap("credentialID")
        let id = try descriptor.ctapMember("id", of: "credentialID").ctapBytes("credentialID.id")
        let stored = try await Self.storing { () async throws(StoreError) in try await credentials.credential(id: id) }
        // Authorized before the credential's absence is revealed; bound to its RP when it exists.
        let rpIDHash = stored.map { SHA256Digest.hash(Array($0.rpID.utf8)) }
        try authorizeCredentialManagement(parameters, message: message, rpIDHash: rpIDHash)
        guard let stored, stored.discoverable else {
            throw CTAPError(.noCredentials, "no discoverable credential has that ID")
        }
        return stored
    }

    /// One credential as enumerateCredentials returns it (§6.8.4): user, credentialID, publicKey,
    /// credProtect and, when it has one, largeBlobKey.
    private func describe(_ stored: StoredCredential) async throws(CTAPError) -> [CBOR: CBOR] {
        var user: [CBOR: CBOR] = ["id": .bytes(stored.userHandle)]
        if !stored.userName.isEmpty {
            user["name"] = .text(stored.userName)
        }
        if !stored.userDisplayName.isEmpty {
            user["displayName"] = .text(stored.userDisplayName)
        }
        let publicKey: COSEKey
        do {
            publicKey = try stored.publicKey
        } catch {
            throw CTAPError(.other, "the stored public key does not parse: \(error.reason)")
        }
        var answer: [CBOR: CBOR] = [
            6: .map(user), 7: ["id": .bytes(stored.id), "type": "public-key"], 8: publicKey.cbor,
            10: CBOR(Int((stored.credentialProtection ?? .userVerificationOptional).rawValue)),
        ]
        let key = try await authenticating { () async throws(AuthenticatorError) in
            try await authenticator.largeBlobKey(of: stored)
        }
        if let key {
            answer[11] = .bytes(key.withUnsafeBytes { Array($0) })
        }
        return answer
    }

    /// One RP as enumerateRPs returns it (§6.8.3): its ID (the store keeps no name) and its hash.
    private static func relyingParty(_ rpID: String) -> [CBOR: CBOR] {
        [3: ["id": .text(rpID)], 4: .bytes(SHA256Digest.hash(Array(rpID.utf8)))]
    }

    /// The discoverable credentials of a store, newest first; unreadable records are left out.
    private static func discoverable(in credentials: any CredentialStore) async throws(CTAPError) -> [StoredCredential]
    {
        try await storing { () async throws(StoreError) in try await credentials.all() }.credentials.filter(
            \.discoverable)
    }

    /// The member `key` of `subCommandParams`.
    ///
    /// - Throws: `CTAP2_ERR_MISSING_PARAMETER` when it is absent.
    private static func member(_ map: [CBOR: CBOR], _ key: UInt64, _ name: String) throws(CTAPError) -> CBOR {
        guard let value = map[.unsigned(key)] else {
            throw CTAPError(.missingParameter, "subCommandParams.\(name) (0x0\(key)) is missing")
        }
        return value
    }

    /// Runs a store call, turning its failure into the status the authenticator would answer.
    private static func storing<T>(_ body: () async throws(StoreError) -> T) async throws(CTAPError) -> T {
        do {
            return try await body()
        } catch {
            let wrapped = AuthenticatorError(error)
            throw CTAPError(CTAPStatus(rawValue: wrapped.code.rawValue), wrapped.reason)
        }
    }
}
