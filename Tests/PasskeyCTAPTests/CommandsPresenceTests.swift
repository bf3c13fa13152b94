import PasskeyAuthenticator
import PasskeyCTAP
import Synchronization
import Testing
import WebAuthn

/// User presence (CTAP 2.1 §6.1.2 step 13, §6.2.2 step 9, §6.6, §6.9), keep-alives while waiting
/// (§11.2.9.2.1), CTAPHID_CANCEL (§11.2.9.1.5), and Reset and Selection, which need nothing else.
@Suite struct CommandsPresenceTests {
    /// What a transaction saw: keep-alives sent, and the client's cancel.
    final class Transaction: Sendable {
        let keepAlives = Mutex<[KeepAliveStatus]>([])
        let cancelled = Mutex(false)

        var context: CTAPTransaction {
            CTAPTransaction(
                channel: 7, isCancelled: { self.cancelled.withLock { $0 } },
                keepAlive: { status in self.keepAlives.withLock { $0.append(status) } })
        }
    }

    let hash = [UInt8](repeating: 0x5A, count: 32)

    @Test func aDenialIsOperationDeniedAndStoresNothing() async throws {
        let fixture = CommandsFixture(presence: .deny)
        let request = CBOR.map(CommandsFixture.makeCredential(clientDataHash: hash))
        #expect(try await fixture.send(.makeCredential, request).status == .operationDenied)
        #expect(await fixture.store.all().credentials.isEmpty)
        #expect(try await fixture.send(.selection).status == .operationDenied)
        #expect(try await fixture.send(.getInfo).status == .ok)
    }

    /// The policies that ask no one answer at once, and still honour a client's cancel.
    @Test func automaticPresenceAnswersAtOnceUnlessCancelled() async throws {
        let fixture = CommandsFixture(presence: .automatic)
        let transaction = Transaction()
        #expect(
            try await fixture.send([CTAPCommand.selection.rawValue], transaction: transaction.context).status == .ok)
        transaction.cancelled.withLock { $0 = true }
        #expect(
            try await fixture.send([CTAPCommand.selection.rawValue], transaction: transaction.context).status
                == .keepAliveCancel)
        #expect(transaction.keepAlives.withLock { $0 }.isEmpty)
    }

    @Test func anAssertionWithUPAsksTheUser() async throws {
        let store = InMemoryCredentialStore()
        _ = try await CommandsFixture(store: store).register()
        let request: CBOR = [1: .text(CommandsFixture.rpID), 2: .bytes(hash)]
        #expect(
            try await CommandsFixture(store: store, presence: .deny).send(.getAssertion, request).status
                == .operationDenied)
    }

    @Test func askingSeesTheCommandAndRelyingParty() async throws {
        let asked = Mutex<[UserPresenceRequest]>([])
        let fixture = CommandsFixture(
            presence: .ask { request in
                asked.withLock { $0.append(request) }
                return true
            })
        _ = try await fixture.register()
        #expect(try await fixture.send(.selection) == (.ok, nil))
        #expect(
            asked.withLock { $0 } == [
                UserPresenceRequest(command: .makeCredential, rpID: CommandsFixture.rpID),
                UserPresenceRequest(command: .selection),
            ])
    }

    @Test func waitingSendsKeepAlivesAndCancelEndsItAtOnce() async throws {
        // The prompt ignores cancellation and answers only once the test is over, so an answer
        // before then is the device giving up on it; the client cancels at its first keep-alive.
        let (over, ending) = AsyncStream.makeStream(of: Void.self)
        let fixture = CommandsFixture(
            presence: .ask(timeout: .seconds(3600)) { _ in
                await Task.detached { for await _ in over {} }.value
                return true
            })
        let transaction = Transaction()
        let context = CTAPTransaction(
            channel: 7, isCancelled: { transaction.cancelled.withLock { $0 } },
            keepAlive: { status in
                transaction.keepAlives.withLock { $0.append(status) }
                transaction.cancelled.withLock { $0 = true }
            })
        let request = CBOR.map(CommandsFixture.makeCredential(clientDataHash: hash))
        let answer = await fixture.device.handle(
            [CTAPCommand.makeCredential.rawValue] + request.encoded(), context: context)
        ending.finish()
        #expect(answer == [CTAPStatus.keepAliveCancel.rawValue])
        #expect(transaction.keepAlives.withLock { $0 } == [.userPresenceNeeded])
        #expect(await fixture.store.all().credentials.isEmpty)
    }

    @Test func aCancelBeforeTheWaitAnswersAtOnce() async throws {
        let transaction = Transaction()
        transaction.cancelled.withLock { $0 = true }
        let answer = await CommandsFixture().device.handle(
            [CTAPCommand.selection.rawValue], context: transaction.context)
        #expect(answer == [CTAPStatus.keepAliveCancel.rawValue])
    }

    @Test func noAnswerInTimeIsUserActionTimeout() async throws {
        let fixture = CommandsFixture(
            presence: .ask(timeout: .milliseconds(300)) { _ in
                try? await Task.sleep(for: .seconds(30))
                return true
            })
        #expect(try await fixture.send(.selection).status == .userActionTimeout)
    }

    @Test func resetWipesEveryCredential() async throws {
        let fixture = CommandsFixture()
        _ = try await fixture.register()
        _ = try await fixture.register(userID: [5])
        #expect(try await fixture.send(.reset) == (.ok, nil))
        #expect(await fixture.store.all().credentials.isEmpty)
    }

    @Test func resetAfterItsWindowIsNotAllowed() async throws {
        let time = ManualClock()
        let fixture = CommandsFixture(clock: time.clock)
        _ = try await fixture.register()
        time.advance(by: .seconds(10))
        #expect(try await fixture.send(.reset).status == .notAllowed)
        #expect(await fixture.store.all().credentials.count == 1)
    }

    @Test func resetNeedsPresenceAndAWipe() async throws {
        let store = InMemoryCredentialStore()
        _ = try await CommandsFixture(store: store).register()
        #expect(try await CommandsFixture(store: store, presence: .deny).send(.reset).status == .operationDenied)
        let unresettable = CTAPDevice(authenticator: SoftwareAuthenticator(store: store, profile: .securityKey))
        #expect(
            await unresettable.handle([CTAPCommand.reset.rawValue], context: CTAPTransaction(channel: 1)) == [
                CTAPStatus.operationDenied.rawValue
            ])
        #expect(await store.all().credentials.count == 1)
    }
}
