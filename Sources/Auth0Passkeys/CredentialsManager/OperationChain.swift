/// Asynchronous operations run one at a time, each starting when the one queued before it has
/// finished, in the order they were queued.
///
/// An actor alone does not do this: it runs one piece of a method at a time, but lets another
/// call in at every `await`. ``CredentialsManager`` queues each renewal here so that when many
/// tasks ask for credentials that need renewing, the first renews and the others read what it
/// stored, and the refresh token is spent once.
struct OperationChain {
    /// The last queued operation; the next one waits for it.
    private var tail: Task<Void, Never>?

    /// Queues `operation` after every operation queued before it.
    ///
    /// - Returns: the task running it, whose value is its result.
    mutating func enqueue<Value: Sendable, Failure: Error>(
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) -> Task<Result<Value, Failure>, Never> {
        let previous = tail
        let task = Task { () async -> Result<Value, Failure> in
            await previous?.value
            do throws(Failure) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        tail = Task { _ = await task.value }
        return task
    }
}
