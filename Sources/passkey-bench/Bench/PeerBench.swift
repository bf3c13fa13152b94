import Foundation
import Subprocess
import SystemPackage

/// soft-webauthn, the peer `passkey-bench --compare-peer` measures in the same run (issue 13):
/// `Tests/Interop/peer_bench.py` in the test virtual environment prints the peer's rate for one
/// operation over a number of seconds, so anyone with `make setup` done reproduces the comparison.
struct PeerBench {
    /// The Python interpreter of the virtual environment that has soft-webauthn.
    let python: String
    /// `peer_bench.py`.
    let script: String

    /// The peer's operations.
    enum Operation: String {
        case create, get
    }

    /// The peer's operations per second over `seconds`, in a child process.
    ///
    /// - Throws: ``BenchChildFailure`` when the script cannot run or prints no rate.
    func rate(_ operation: Operation, seconds: Double) async throws -> Double {
        let result = try await Subprocess.run(
            .path(FilePath(python)), arguments: [script, operation.rawValue, String(seconds)],
            output: .string(limit: 4096), error: .string(limit: 65536))
        let output = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.terminationStatus.isSuccess, let rate = Double(output), rate > 0 else {
            let reason = result.standardError.split(separator: "\n").last.map(String.init) ?? "no output"
            throw BenchChildFailure(reason: "\(script) \(operation.rawValue): \(reason)")
        }
        return rate
    }
}
