import CoreMetrics
public import Prometheus
import Synchronization

/// The control server's metrics, through swift-metrics into a Prometheus registry of its own (the
/// process-wide `MetricsSystem` is left alone: a library does not bootstrap it):
///
/// ```
/// passkey_operations_total{operation, outcome}      counter: outcome "ok" or the error code
/// passkey_operation_duration_seconds{operation}     histogram of successful operations
/// passkey_requests_total{status}                    counter of HTTP answers by status
/// ```
///
/// `operation` is `create`, `get` (ceremonies) or a virtual-user flow (`signup`, `login`,
/// `enroll`, `token`, `api`, `logout`).
public final class ControlMetrics: Sendable {
    /// An operation that is counted and timed.
    public struct Operation: Sendable, Hashable {
        /// The label value.
        public let name: String

        public static let create = Operation(name: "create")
        public static let get = Operation(name: "get")
        public static let signup = Operation(name: "signup")
        public static let login = Operation(name: "login")
        public static let enroll = Operation(name: "enroll")
        public static let token = Operation(name: "token")
        public static let api = Operation(name: "api")
        public static let logout = Operation(name: "logout")
    }

    /// The registry `GET /metrics` renders.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let counters = Mutex<[[String]: CoreMetrics.Counter]>([:])
    private let timers = Mutex<[String: CoreMetrics.Timer]>([:])

    /// Creates metrics in a new registry.
    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        self.factory = factory
    }

    /// The Prometheus text exposition (version 0.0.4) of every metric.
    public func render() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// Runs `body`, counting its outcome and timing it when it succeeds.
    ///
    /// - Parameters:
    ///   - operation: what `body` does.
    ///   - body: the operation.
    /// - Returns: what `body` returns.
    /// - Throws: ``ControlError`` made from what `body` throws (``ControlError/init(flow:)``).
    func measuring<Value, Failure: Error>(_ operation: Operation, _ body: () async throws(Failure) -> Value)
        async throws(ControlError) -> Value
    {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            let elapsed = ContinuousClock.now - start
            timer(operation.name).recordNanoseconds(
                elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            counter("passkey_operations_total", ["operation", operation.name, "outcome", "ok"]).increment()
            return value
        } catch {
            let failure = ControlError(flow: error)
            counter("passkey_operations_total", ["operation", operation.name, "outcome", failure.code]).increment()
            throw failure
        }
    }

    /// Counts one HTTP answer.
    func answered(status: Int) {
        counter("passkey_requests_total", ["status", String(status)]).increment()
    }

    /// The counter of `label` with `dimensions` given as name, value, name, value, …, made once.
    private func counter(_ label: String, _ dimensions: [String]) -> CoreMetrics.Counter {
        counters.withLock { counters in
            let key = [label] + dimensions
            if let counter = counters[key] { return counter }
            let pairs = stride(from: 0, to: dimensions.count, by: 2).map { (dimensions[$0], dimensions[$0 + 1]) }
            let counter = CoreMetrics.Counter(label: label, dimensions: pairs, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    private func timer(_ operation: String) -> CoreMetrics.Timer {
        timers.withLock { timers in
            if let timer = timers[operation] { return timer }
            let timer = CoreMetrics.Timer(
                label: "passkey_operation_duration_seconds", dimensions: [("operation", operation)], factory: factory)
            timers[operation] = timer
            return timer
        }
    }
}
