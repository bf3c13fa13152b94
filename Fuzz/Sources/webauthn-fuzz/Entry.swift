import Foundation

/// The target named by `FUZZ_TARGET`, chosen before libFuzzer runs and never changed after.
nonisolated(unsafe) private var target = FuzzTarget.cbor

/// libFuzzer's driver (`compiler-rt/lib/fuzzer/FuzzerInterface.h`), for a binary whose `main`
/// is not libFuzzer's: SwiftPM links an executable's entry point as `<module>_main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The entry point: picks the target (`FUZZ_TARGET`, one of ``FuzzTarget``'s raw values) and
/// hands the command line to libFuzzer.
@_cdecl("webauthn_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("FUZZ_TARGET must be one of: \(names)\n".utf8))
        return 2
    }
    target = chosen
    var argc = argc
    var argv = argv
    return runDriver(&argc, &argv) { data, size in
        target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
}
