import Synchronization

/// Runs an operation with a deadline that holds even when the operation cannot be cancelled.
///
/// A task group waits for its children, and a postgres-nio query waiting on a connection whose
/// server went away does not end when cancelled, so a group racing it against a timer would wait as
/// long as the query. Here the caller resumes at whichever comes first, the result or the deadline;
/// an operation past its deadline is cancelled and left to end in the background (its connection
/// fails or answers), holding nothing of the caller's.
enum Deadline {
    /// The operation took longer than its deadline.
    struct Passed: Error {}

    /// The result of `operation`, or ``Passed`` once `timeout` has gone by, whichever comes first.
    static func run<T: Sendable>(
        within timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let once = Once(continuation)
            let timer = Task {
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                once.resume(with: .failure(Passed()))
            }
            let work = Task {
                do {
                    let value = try await operation()
                    timer.cancel()
                    once.resume(with: .success(value))
                } catch {
                    timer.cancel()
                    once.resume(with: .failure(error))
                }
            }
            once.keep(work)
        }
    }

    /// A continuation resumed once, by whichever side comes first.
    private final class Once<T: Sendable>: Sendable {
        private let state: Mutex<(continuation: CheckedContinuation<T, any Error>?, work: Task<Void, Never>?)>

        init(_ continuation: CheckedContinuation<T, any Error>) {
            state = Mutex((continuation, nil))
        }

        /// Keeps the operation's task, to cancel it when the deadline passes first; cancels it at
        /// once when the caller was resumed already (cancelling a finished task does nothing).
        func keep(_ work: Task<Void, Never>) {
            let resumed = state.withLock { state in
                state.work = work
                return state.continuation == nil
            }
            if resumed { work.cancel() }
        }

        func resume(with result: Result<T, any Error>) {
            let (continuation, work) = state.withLock { state in
                defer { state = (nil, nil) }
                return (state.continuation, state.work)
            }
            guard let continuation else { return }
            if case .failure(let error) = result, error is Passed { work?.cancel() }
            continuation.resume(with: result)
        }
    }
}
