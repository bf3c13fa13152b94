import Foundation
import PasskeyBrowser
import TestSupport
import Testing

/// Finding an engine along `PATH`, and the one line that names the Debian package when it is not.
@Suite(.temporaryDirectory) struct BrowserEngineTests {
    /// An executable file named `name` in the test's directory.
    private func executable(_ name: String) throws -> String {
        let path = try TemporaryDirectory.current.write(name, "#!/bin/sh\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func findsTheExecutableAlongPATH() throws {
        let path = try executable("chromium")
        let directory = try TemporaryDirectory.current.path
        #expect(try BrowserEngine.chromium.locate(environment: ["PATH": "/nonexistent:" + directory]) == path)
    }

    @Test func prefersFirefoxESR() throws {
        _ = try executable("firefox")
        let esr = try executable("firefox-esr")
        let directory = try TemporaryDirectory.current.path
        #expect(try BrowserEngine.firefox.locate(environment: ["PATH": directory]) == esr)
    }

    @Test func aFileThatIsNotExecutableIsNotTheEngine() throws {
        try TemporaryDirectory.current.write("chromium", "not a program")
        let directory = try TemporaryDirectory.current.path
        #expect(throws: BrowserError(.engineMissing, "")) {
            try BrowserEngine.chromium.locate(environment: ["PATH": directory])
        }
    }

    @Test(arguments: [(BrowserEngine.chromium, "chromium"), (.firefox, "firefox-esr")])
    func aMissingEngineNamesItsDebianPackage(engine: BrowserEngine, package: String) throws {
        let directory = try TemporaryDirectory.current.path
        let error = try #require(throws: BrowserError.self) {
            try engine.locate(environment: ["PATH": directory])
        }
        #expect(error.code == .engineMissing)
        #expect(error.reason.contains("apt-get install \(package)"))
        #expect(!error.reason.contains("\n"))
        #expect(throws: BrowserError(.engineMissing, "")) { try engine.locate(environment: [:]) }
    }
}
