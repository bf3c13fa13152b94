import Dispatch

/// A serial executor that runs its jobs on a dispatch queue of its own, off the Swift concurrency
/// pool.
///
/// The pool has one thread per core (two on the machines this package is tested on): a job that
/// blocks one of them (`fsync`, a contended `flock`, a long `read`) stalls every task of the
/// process. An actor whose methods make such calls takes one of these as its executor, so its
/// isolated code runs on a queue whose thread the system adds when the queue has work, as
/// `CurlTransport` does for `curl_easy_perform` (STYLE §2; cf. apple/swift-nio's `NIOThreadPool`).
///
/// ```swift
/// actor Store {
///     private let executor = BlockingExecutor(label: "Store")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
/// }
/// ```
///
/// `Sendable`: the queue is immutable and itself thread-safe.
package final class BlockingExecutor: SerialExecutor, Sendable {
    private let queue: DispatchQueue

    /// Creates an executor with a serial queue of its own.
    ///
    /// - Parameter label: the queue's label, shown by debuggers and crash reports.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs `body` on the queue and returns its result to the awaiting task, for blocking work
    /// that belongs to no actor (waiting for a child process, a blocking C call).
    ///
    /// - Parameter body: the blocking work.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    package func run<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value)
        async throws(Failure) -> Value
    {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) in try body() })
            }
        }
        return try result.get()
    }
}
