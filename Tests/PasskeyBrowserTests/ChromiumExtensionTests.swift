import Foundation
import Testing
import WebAuthn

@testable import PasskeyBrowser

/// The Chromium extension's manifest and command line: what makes the script run in the page's
/// world, before its scripts, in every frame.
@Suite struct ChromiumExtensionTests {
    private let launch = BrowserLaunch(
        engine: .chromium, executable: "/usr/bin/chromium", url: "https://example.com/login", script: "1;",
        loopbackServices: ["127.0.0.1:4711"])

    @Test func theContentScriptRunsInTheMainWorldOfEveryFrameFirst() throws {
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(ChromiumExtension.manifestJSON))
        guard case .object(let members) = manifest, case .array(let scripts)? = members["content_scripts"],
            scripts.count == 1, case .object(let script) = scripts[0]
        else {
            Issue.record("manifest.json has no single content script: \(manifest)")
            return
        }
        #expect(members["manifest_version"] == .number(3))
        #expect(members["permissions"] == nil && members["host_permissions"] == nil)
        #expect(script["world"] == .string("MAIN"))
        #expect(script["run_at"] == .string("document_start"))
        #expect(script["all_frames"] == .bool(true))
        #expect(script["match_about_blank"] == .bool(true))
        #expect(script["match_origin_as_fallback"] == .bool(true))
        #expect(script["matches"] == .array([.string("<all_urls>")]))
        #expect(script["js"] == .array([.string(ChromiumExtension.scriptFile)]))
    }

    @Test func theCommandLineLoadsTheExtensionIntoATemporaryProfile() {
        let arguments = ChromiumExtension.arguments(
            launch, extensionDirectory: "/tmp/x/extension", profileDirectory: "/tmp/x/profile", asRoot: false)
        #expect(arguments.contains("--load-extension=/tmp/x/extension"))
        #expect(arguments.contains("--user-data-dir=/tmp/x/profile"))
        #expect(arguments.contains("--disable-features=DisableLoadExtensionCommandLineSwitch"))
        #expect(arguments.contains("--no-first-run"))
        #expect(arguments.contains("--ip-address-space-overrides=127.0.0.1:4711=public"))
        #expect(!arguments.contains { $0.hasPrefix("--headless") })
        #expect(!arguments.contains("--no-sandbox"))
        #expect(arguments.last == "https://example.com/login")
    }

    @Test func headlessAndRootAddTheirFlags() {
        var headless = launch
        headless.headless = true
        headless.loopbackServices = []
        let arguments = ChromiumExtension.arguments(
            headless, extensionDirectory: "/e", profileDirectory: "/p", asRoot: true)
        #expect(arguments.contains("--headless=new"))
        #expect(arguments.contains("--no-sandbox"))
        #expect(!arguments.contains { $0.hasPrefix("--ip-address-space-overrides") })
        #expect(arguments.last == "https://example.com/login")
    }

    @Test func theLaunchDescribesItselfWithoutTheScript() {
        var secret = launch
        secret.script = "capability-3f9a"
        #expect(!String(describing: secret).contains("capability-3f9a"))
        #expect(!String(reflecting: secret).contains("capability-3f9a"))
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("capability-3f9a"))
    }
}
