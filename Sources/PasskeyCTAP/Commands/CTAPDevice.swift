public import PasskeyAuthenticator
public import WebAuthn

/// The CTAP 2.1 authenticator API (§6) over any `Authenticator`: command byte and canonical
/// CBOR in, status byte and canonical CBOR out — what a FIDO security key does behind its
/// transport.
///
/// It is a thin adapter: requests decode into the core's `MakeCredentialRequest` and
/// `GetAssertionRequest`, the authenticator does the work, and its answers encode back. User
/// presence is the device's (``UserPresence``), and so is built-in user verification when it has
/// one (``UserVerification``); everything else (keys, counters, attestation) is the authenticator's.
///
/// | byte | command | answers |
/// |---|---|---|
/// | 0x01 | authenticatorMakeCredential (§6.1) | `fmt`, `authData`, `attStmt` |
/// | 0x02 | authenticatorGetAssertion (§6.2) | `credential`, `authData`, `signature`, `user` |
/// | 0x04 | authenticatorGetInfo (§6.4) | versions, AAGUID, options, algorithms, … |
/// | 0x06 | authenticatorClientPIN (§6.5), PIN/UV auth protocols 1 and 2 | retries, key, token |
/// | 0x07 | authenticatorReset (§6.6) | nothing, after presence, within 10 s of power-up |
/// | 0x08 | authenticatorGetNextAssertion (§6.3), with a credential store | the next of `numberOfCredentials` |
/// | 0x0A, 0x41 | authenticatorCredentialManagement (§6.8), with a credential store | metadata, RPs, credentials |
/// | 0x0B | authenticatorSelection (§6.9) | nothing, after presence |
/// | 0x0C | authenticatorLargeBlobs (§6.10), when the authenticator keeps large blobs | fragments of the array |
/// | 0x0D | authenticatorConfig (§6.11): toggleAlwaysUv, setMinPINLength | nothing |
///
/// U2F (CTAP1) messages, which `CTAPHID_MSG` carries, go to ``handleU2F(_:context:)``.
///
/// Any other command is `CTAP1_ERR_INVALID_COMMAND`; a malformed request its §8 status
/// (`CTAP1_ERR_INVALID_LENGTH`, `CTAP2_ERR_INVALID_CBOR`, `CTAP2_ERR_CBOR_UNEXPECTED_TYPE`,
/// `CTAP2_ERR_MISSING_PARAMETER`, …). It never traps on input.
///
/// ```swift
/// let device = CTAPDevice(authenticator: SoftwareAuthenticator(store: InMemoryCredentialStore()))
/// let info = await device.handle([0x04], context: CTAPTransaction(channel: 1))  // 0x00, then the map
/// ```
///
/// Why one type across its files (about 2,000 lines, one command per file): CTAP 2.1 makes the
/// commands share one authenticator's power-cycle state, and each command reads or ends another's.
/// The PIN session (retries, mismatches since power-up, the pinUvAuthToken and its permissions,
/// §6.5) is checked by makeCredential, getAssertion, credentialManagement, largeBlobs and config;
/// "any other command" ends a pending getNextAssertion (§6.3) or credential enumeration (§6.8);
/// Reset (§6.6) wipes what all of them keep. One actor serialises the commands as a device does,
/// so that state needs no lock and no command can see another half done. The pieces without that
/// state are types of their own: ``UserPresence``, ``UserVerification``, `U2FPresence`, `PINSession`,
/// `PinUvAuthToken`, `PendingAssertions`, `CredentialEnumeration`, `LargeBlobWrite`, `CTAPParameters`.
public actor CTAPDevice: CTAPCommandHandler {
    /// The authenticator that makes credentials and signs.
    public nonisolated let authenticator: any Authenticator
    /// How the user shows presence.
    public nonisolated let presence: UserPresence
    /// How the device verifies the user itself; `nil`: no built-in user verification (a PIN only).
    public nonisolated let userVerification: UserVerification?
    /// Wipes every credential, for authenticatorReset; `nil` when this authenticator cannot be
    /// reset through CTAP.
    let wipe: (@Sendable () async throws(AuthenticatorError) -> Void)?
    /// How long after power-up (creation) Reset is allowed (§6.6: 10 seconds).
    let resetWindow: Duration
    /// Where the device reads the time.
    let clock: CTAPClock
    /// When the device was powered up.
    let poweredUp: ContinuousClock.Instant
    /// Where the PIN, its retries and the configuration persist; `nil`: in memory only.
    let stateStore: (any CTAPStateStore)?
    /// The clientPIN state while powered: the persistent state read, mismatches, the token.
    var pin = PINSession()

    /// The transports getInfo reports (§6.4 `transports`).
    public nonisolated let transports: [AuthenticatorTransport]

    /// The store authenticatorCredentialManagement lists and changes; `nil`: no such command.
    let credentials: (any CredentialStore)?
    /// The RPs or credentials an enumeration has still to return (§6.8); any other command ends it.
    var credentialEnumeration: CredentialEnumeration?
    /// The assertions getAssertion counted and has not returned (§6.3); any other command ends them.
    var pendingAssertions: PendingAssertions?
    /// The large-blob array being written in fragments (§6.10.2 `set`), until its last one.
    var largeBlobWrite: LargeBlobWrite?
    /// U2F's test of user presence, answered at once and polled by the client (``handleU2F(_:context:)``).
    let u2fPresence = U2FPresence()

    /// Creates a device.
    ///
    /// - Parameters:
    ///   - authenticator: what makes credentials and signs.
    ///   - state: where the PIN (as CTAP keeps it), its retries and the configuration persist
    ///     (CTAP 2.1 §6.5.2), such as the credential store; `nil` keeps them in memory only.
    ///   - presence: how the user shows presence; ``UserPresence/automatic`` by default.
    ///   - userVerification: the device's built-in user verification (CTAP 2.1 §6.5.5.7.3);
    ///     `nil` by default: none, a PIN is the only user verification.
    ///   - transports: what getInfo reports as transports; USB HID by default.
    ///   - resetWindow: how long after creation authenticatorReset is allowed (CTAP 2.1 §6.6).
    ///   - wipe: deletes every credential, for authenticatorReset; `nil` refuses Reset with
    ///     `CTAP2_ERR_OPERATION_DENIED`.
    ///   - clock: where the device reads the time; the system's by default.
    ///   - credentials: the authenticator's credential store, for authenticatorCredentialManagement
    ///     (CTAP 2.1 §6.8); `nil` leaves the command out.
    public init(
        authenticator: any Authenticator, state: (any CTAPStateStore)? = nil, presence: UserPresence = .automatic,
        userVerification: UserVerification? = nil, transports: [AuthenticatorTransport] = [.usb],
        resetWindow: Duration = .seconds(10), wipe: (@Sendable () async throws(AuthenticatorError) -> Void)? = nil,
        clock: CTAPClock = .continuous, credentials: (any CredentialStore)? = nil
    ) {
        self.authenticator = authenticator
        self.stateStore = state
        self.presence = presence
        self.userVerification = userVerification
        self.transports = transports
        self.resetWindow = resetWindow
        self.wipe = wipe
        self.clock = clock
        self.poweredUp = clock.now()
        self.credentials = credentials
    }

    /// Answers one message (CTAP 2.1 §8.1, §8.2).
    ///
    /// - Parameters:
    ///   - message: the command byte, then its CBOR parameters.
    ///   - context: the transaction, for keep-alives and cancel while waiting for presence.
    /// - Returns: `CTAP2_OK` and the CBOR response, or an error status alone.
    public func handle(_ message: [UInt8], context: CTAPTransaction) async -> [UInt8] {
        do {
            let response = try await answer(message, context)
            return [CTAPStatus.ok.rawValue] + (response?.encoded() ?? [])
        } catch {
            return [error.status.rawValue]
        }
    }

    private func answer(_ message: [UInt8], _ transaction: CTAPTransaction) async throws(CTAPError) -> CBOR? {
        guard let byte = message.first else {
            throw CTAPError(.invalidLength, "an empty message has no command byte")
        }
        let parameters = message.dropFirst()
        // §6.8.3, §6.8.4: an enumeration goes on only while each next command continues it.
        let enumeration = credentialEnumeration
        credentialEnumeration = nil
        // §6.3: likewise the assertions a getAssertion counted.
        let assertions = pendingAssertions
        pendingAssertions = nil
        switch CTAPCommand(rawValue: byte) {
        case .getInfo:
            guard parameters.isEmpty else {
                throw CTAPError(.invalidLength, "authenticatorGetInfo takes no parameters")
            }
            return try await getInfo()
        case .makeCredential:
            return try await makeCredential(CTAPParameters(parameters), transaction)
        case .getAssertion:
            return try await getAssertion(CTAPParameters(parameters), transaction)
        case .clientPIN:
            return try await clientPIN(CTAPParameters(parameters), transaction)
        case .getNextAssertion:
            return try await getNextAssertion(assertions)
        case .reset:
            try await reset(transaction)
            return nil
        case .config:
            try await config(CTAPParameters(parameters))
            return nil
        case .selection:
            try await presence.require(UserPresenceRequest(command: .selection), in: transaction)
            return nil
        case .credentialManagement, .credentialManagementPreview:
            return try await credentialManagement(CTAPParameters(parameters), continuing: enumeration)
        case .largeBlobs:
            return try await largeBlobs(CTAPParameters(parameters))
        default:
            throw CTAPError(.invalidCommand, "command 0x\(String(byte, radix: 16)) is not implemented")
        }
    }

    /// Runs an authenticator call, turning its ``AuthenticatorError`` into the same status byte.
    func authenticating<T>(_ body: () async throws(AuthenticatorError) -> T) async throws(CTAPError) -> T {
        do {
            return try await body()
        } catch {
            throw CTAPError(CTAPStatus(rawValue: error.code.rawValue), error.reason)
        }
    }
}
