import Foundation
import PasskeyAuthenticator
import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The software authenticator's behaviour, the same whichever backend keeps its keys (in memory,
/// sealed in files, or in a PKCS#11 token).
@Suite(.temporaryDirectory) struct SoftwareAuthenticatorTests {
    /// Creation options that leave discoverability to the authenticator and ask which it chose.
    static let askingForCredProps = Ceremony.creationOptions(
        residentKey: .discouraged, extensions: AuthenticationExtensionsClientInputsJSON(credProps: true))

    @Test(arguments: Backend.allCases)
    func platformProfileMakesASyncedPasskey(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .platform)
        let (response, verified) = try await ceremony.register()
        #expect(verified.format == .none)
        #expect(verified.aaguid == .zero)
        #expect(verified.signCount == 0)
        #expect(verified.userVerified && verified.backupEligible && verified.backupState)
        #expect(verified.algorithm == .es256)
        #expect(response.authenticatorAttachment == .platform)
        #expect(response.response.transports == [.hybrid, .internal])
        #expect(response.response.publicKeyAlgorithm == -7)
        #expect(response.response.publicKey != nil)

        let stored = try #require(await store.credential(id: verified.credentialID))
        let before = stored
        for _ in 0..<3 {
            let (_, assertion) = try await ceremony.authenticate(verified.record(userHandle: stored.userHandle))
            #expect(assertion.signCount == 0)
            #expect(assertion.userVerified && assertion.backupState)
        }
        #expect(try await store.credential(id: verified.credentialID) == before)
    }

    @Test(arguments: Backend.allCases)
    func securityKeyCountsAndSelfAttestsWhenAsked(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .securityKey)
        let (response, verified) = try await ceremony.register(
            Ceremony.creationOptions(attestation: .direct, residentKey: .discouraged))
        #expect(verified.format == .packed)
        #expect(verified.attestationType == .`self`)
        #expect(verified.aaguid == AuthenticatorProfile.securityKey.narrowed(for: store).aaguid)
        #expect(!verified.backupEligible && !verified.backupState)
        #expect(response.authenticatorAttachment == .crossPlatform)
        #expect(response.response.transports == [.usb])

        var record = verified.record()
        for expected in UInt32(1)...3 {
            let (_, assertion) = try await ceremony.authenticate(
                record, options: Ceremony.requestOptions(allow: [verified.credentialID]))
            #expect(assertion.signCount == expected)
            record.signCount = assertion.signCount
        }
        #expect(try await store.credential(id: verified.credentialID)?.signCount == 3)
    }

    @Test(arguments: Backend.allCases)
    func securityKeyConveysNoneWhenTheRelyingPartyAsksForNone(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .securityKey)
        let (_, verified) = try await ceremony.register(
            Ceremony.creationOptions(attestation: AttestationConveyancePreference.none))
        #expect(verified.format == .none)
        #expect(verified.aaguid == AuthenticatorProfile.securityKey.narrowed(for: store).aaguid)
    }

    @Test(arguments: Backend.allCases)
    func theFirstSupportedAlgorithmIsChosen(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .platform)
        let options = Ceremony.creationOptions(algorithms: [.rs256, .eddsa, .es256])
        let (response, verified) = try await ceremony.register(options)
        #expect(verified.algorithm == .eddsa)
        #expect(response.response.publicKeyAlgorithm == COSEAlgorithm.eddsa.rawValue)
        let (_, assertion) = try await ceremony.authenticate(verified.record())
        #expect(assertion.credentialID == verified.credentialID)
    }

    @Test(arguments: Backend.allCases)
    func noSupportedAlgorithmIsNotSupportedError(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .platform)
        await #expect(throws: WebAuthnClientError(.notSupported, "")) {
            try await ceremony.register(Ceremony.creationOptions(algorithms: [.rs256, .es384]))
        }
        #expect(try await store.all().credentials.isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func anExcludedCredentialIsInvalidStateAndTheStoreIsUntouched(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .platform)
        let (_, first) = try await ceremony.register()
        let before = try await store.all()
        await #expect(throws: WebAuthnClientError(.invalidState, "")) {
            try await ceremony.register(
                Ceremony.creationOptions(user: "bob", userID: Array("bob".utf8), exclude: [first.credentialID]))
        }
        #expect(try await store.all() == before)
    }

    @Test(arguments: Backend.allCases)
    func severalMatchesPickTheNewestUnlessAUserOrCredentialIsChosen(_ backend: Backend) async throws {
        let store = try await backend.open()
        let clock = SteppingClock()
        let authenticator = SoftwareAuthenticator(
            store: store, profile: AuthenticatorProfile.platform.narrowed(for: store), now: clock.next)
        let ceremony = Ceremony(authenticator)
        let (_, alice) = try await ceremony.register(Ceremony.creationOptions(user: "alice", userID: Array("a".utf8)))
        let (_, bob) = try await ceremony.register(Ceremony.creationOptions(user: "bob", userID: Array("b".utf8)))

        let (newest, _) = try await ceremony.authenticate(bob.record())
        #expect(newest.rawId.bytes == bob.credentialID)
        #expect(newest.response.userHandle?.bytes == Array("b".utf8))

        var choosing = authenticator
        choosing.accountChoice = .user("alice")
        let (chosen, _) = try await Ceremony(choosing).authenticate(alice.record())
        #expect(chosen.rawId.bytes == alice.credentialID)

        choosing.accountChoice = .credential(alice.credentialID)
        let (byID, _) = try await Ceremony(choosing).authenticate(alice.record())
        #expect(byID.rawId.bytes == alice.credentialID)

        choosing.accountChoice = .user("carol")
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await Ceremony(choosing).authenticate(alice.record())
        }
    }

    @Test(arguments: Backend.allCases)
    func anAllowListLimitsTheChoiceAndAnUnknownOneIsNotAllowed(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(
            SoftwareAuthenticator(
                store: store, profile: AuthenticatorProfile.platform.narrowed(for: store), now: SteppingClock().next))
        let (_, first) = try await ceremony.register(Ceremony.creationOptions(user: "a", userID: [1]))
        _ = try await ceremony.register(Ceremony.creationOptions(user: "b", userID: [2]))
        let (response, _) = try await ceremony.authenticate(
            first.record(), options: Ceremony.requestOptions(allow: [first.credentialID]))
        #expect(response.rawId.bytes == first.credentialID)
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await ceremony.authenticate(first.record(), options: Ceremony.requestOptions(allow: [[9, 9, 9]]))
        }
    }

    @Test(arguments: Backend.allCases)
    func aNonDiscoverableCredentialNeedsAnAllowList(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .securityKey)
        let (response, verified) = try await ceremony.register(Self.askingForCredProps)
        #expect(response.clientExtensionResults.credProps?.rk == false)
        await #expect(throws: WebAuthnClientError(.notAllowed, "")) {
            try await ceremony.authenticate(verified.record())
        }
        _ = try await ceremony.authenticate(
            verified.record(), options: Ceremony.requestOptions(allow: [verified.credentialID]))
    }

    @Test(arguments: Backend.allCases)
    func registeringTheSameUserAgainReplacesTheDiscoverableCredential(_ backend: Backend) async throws {
        let store = try await backend.open()
        let ceremony = Ceremony(store: store, profile: .platform)
        let (_, first) = try await ceremony.register()
        let (_, second) = try await ceremony.register()
        #expect(first.credentialID != second.credentialID)
        #expect(try await store.all().credentials.map(\.id) == [second.credentialID])
    }

    @Test(arguments: Backend.allCases)
    func credPropsReportsADiscoverablePlatformCredential(_ backend: Backend) async throws {
        let ceremony = Ceremony(store: try await backend.open(), profile: .platform)
        let (response, _) = try await ceremony.register(Self.askingForCredProps)
        #expect(response.clientExtensionResults.credProps?.rk == true)
    }
}

/// A clock that moves one second per reading, so creation order is unambiguous.
final class SteppingClock: Sendable {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let ticks = Mutex(0)

    var next: @Sendable () -> Date {
        { [self] in
            let tick = ticks.withLock {
                $0 += 1
                return $0
            }
            return start.addingTimeInterval(Double(tick))
        }
    }
}
