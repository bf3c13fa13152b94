import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey-bench bridge` as a user runs it: the page bridge's get and create in Chromium, over
/// its socket and with fetch, each beside Chromium's own virtual authenticator on the same page, in one run (speed is the bench's
/// output, never a test's verdict).
@Suite struct BridgeBenchCommandTests {
    /// The package's root, where the bench finds its page driver and the browser suite's Python.
    static let root = Vectors.root.deletingLastPathComponent()

    /// The browser suite's Python, which has the `websockets` package when `make setup` has run.
    static let python = root.appendingPathComponent(".venv/bin/python").path

    /// Debian's Chromium and the suite's Python with `websockets` (the bench's CDP client) are there.
    static var chromiumAndWebSockets: Bool {
        let files = FileManager.default
        let packages = root.appendingPathComponent(".venv/lib")
        let websockets = (try? files.contentsOfDirectory(atPath: packages.path))?.contains { version in
            files.fileExists(atPath: packages.appendingPathComponent("\(version)/site-packages/websockets").path)
        }
        return files.isExecutableFile(atPath: "/usr/bin/chromium") && files.isExecutableFile(atPath: python)
            && websockets == true
    }

    @Test(.enabled(if: chromiumAndWebSockets, "needs /usr/bin/chromium and .venv with websockets (make setup)"))
    func measuresTheBridgeBesideChromiumsVirtualAuthenticator() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"),
            ["bridge", "--seconds", "0.05", "--rounds", "1", "--python", Self.python, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(try JSONValue(json: Array(result.stdout.utf8)).arrayValue)
        #expect(
            figures.compactMap { $0["name"]?.stringValue } == [
                "chrome-virtual-get", "bridge-get-chromium", "bridge-get-chromium-fetch", "chrome-virtual-create",
                "bridge-create-chromium", "bridge-create-chromium-fetch",
            ])
        for figure in figures where figure["baseline"] != nil {
            #expect((figure["ratio"]?.numberValue ?? 0) > 0)
            // The socket's goal (issue 44); the fetch path's figure is shown beside it, without one.
            let isFetch = figure["name"]?.stringValue?.hasSuffix("-fetch") == true
            #expect(figure["target"]?.numberValue == (isFetch ? nil : 0.6))
            #expect((figure["meetsTarget"]?.boolValue == nil) == isFetch)
        }
    }

    /// Without the browser suite's Python, the bench says what it needs instead of a figure.
    @Test func saysWhatItNeedsWithoutItsPython() async throws {
        let result = try await ChildProcess.run(
            ChildProcess.built("passkey-bench"), ["bridge", "--seconds", "0.05", "--python", "/nonexistent/python"])
        #expect(result.status != 0)
        #expect(
            result.stderr.contains(
                "the bridge figures need Chromium and the browser suite's Python: no Python at /nonexistent"))
        #expect(result.stdout.isEmpty)
    }
}
