import BlockingIO
import FoundationEssentials
import Glibc
import Logging

/// The unpacked Manifest V3 extension that installs the script in Chromium: one content script
/// in the page's `MAIN` world (so it can replace `navigator.credentials`), at `document_start`
/// (before the page's scripts), in every frame (`all_frames`), including `about:blank`,
/// `about:srcdoc`, `blob:` and `data:` frames (`match_about_blank`, `match_origin_as_fallback`).
///
/// ```
/// { "manifest_version": 3, "name": "SoftPasskey page bridge", "version": "1.0",
///   "content_scripts": [{ "matches": ["<all_urls>"], "js": ["bridge.js"], "run_at": "document_start",
///     "all_frames": true, "match_about_blank": true, "match_origin_as_fallback": true, "world": "MAIN" }] }
/// ```
///
/// It asks for no permission: a content script needs none, and the page's own `fetch` (with the
/// page's origin) is what reaches the bridge.
package struct ChromiumExtension: Sendable {
    /// The script file's name inside the extension.
    package static let scriptFile = "bridge.js"

    /// `manifest.json` (chrome.com "Manifest file format", "content_scripts").
    package struct Manifest: Encodable, Sendable {
        package let manifestVersion = 3
        package let name = "SoftPasskey page bridge"
        package let version = "1.0"
        package let description = "Answers this browser's WebAuthn requests with SoftPasskey (passkey browser)."
        package let contentScripts = [ContentScript()]

        enum CodingKeys: String, CodingKey {
            case manifestVersion = "manifest_version"
            case name, version, description
            case contentScripts = "content_scripts"
        }
    }

    /// The one content script.
    package struct ContentScript: Encodable, Sendable {
        package let matches = ["<all_urls>"]
        package let js = [ChromiumExtension.scriptFile]
        package let runAt = "document_start"
        package let allFrames = true
        package let matchAboutBlank = true
        package let matchOriginAsFallback = true
        package let world = "MAIN"

        enum CodingKeys: String, CodingKey {
            case matches, js
            case runAt = "run_at"
            case allFrames = "all_frames"
            case matchAboutBlank = "match_about_blank"
            case matchOriginAsFallback = "match_origin_as_fallback"
            case world
        }
    }

    /// `manifest.json`'s bytes.
    package static var manifestJSON: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and booleans only: always encodes.
        return Array(try! encoder.encode(Manifest()))
    }

    /// Chromium's command line for `launch`, with the extension in `extensionDirectory` and the
    /// profile in `profileDirectory`.
    ///
    /// `--load-extension` still works in Chromium 156 (branded Chrome 137+ ignores it unless
    /// `DisableLoadExtensionCommandLineSwitch` is disabled, which is said too). Each loopback
    /// service is put in the public address space, so a public site's `fetch` to it is no Local
    /// Network Access request; everything else on loopback and the local network stays guarded.
    /// Chromium refuses to run as root without `--no-sandbox`.
    ///
    /// - Parameters:
    ///   - launch: what to open.
    ///   - extensionDirectory: the unpacked extension.
    ///   - profileDirectory: the temporary profile.
    ///   - asRoot: whether this process runs as root.
    /// - Returns: the arguments.
    package static func arguments(
        _ launch: BrowserLaunch, extensionDirectory: String, profileDirectory: String,
        asRoot: Bool = geteuid() == 0
    ) -> [String] {
        var arguments = [
            "--user-data-dir=\(profileDirectory)", "--load-extension=\(extensionDirectory)",
            "--disable-features=DisableLoadExtensionCommandLineSwitch", "--no-first-run",
            "--no-default-browser-check", "--password-store=basic",
        ]
        if !launch.loopbackServices.isEmpty {
            arguments.append(
                "--ip-address-space-overrides="
                    + launch.loopbackServices.map { "\($0)=public" }.joined(separator: ","))
        }
        if launch.headless {
            arguments.append("--headless=new")
        }
        if asRoot {
            arguments.append("--no-sandbox")
        }
        arguments.append(launch.url)
        return arguments
    }
}

extension BrowserLaunch {
    /// Writes the extension and runs Chromium with it until it ends.
    func runChromium(in scratch: ScratchDirectory, logger: Logger) async throws(BrowserError) {
        try await scratch.save("extension/manifest.json", ChromiumExtension.manifestJSON)
        try await scratch.save("extension/" + ChromiumExtension.scriptFile, Array(script.utf8))
        let profile = try await scratch.makeDirectory("profile")
        let arguments = ChromiumExtension.arguments(
            self, extensionDirectory: scratch.path + "/extension", profileDirectory: profile)
        logger.debug("chromium: \(arguments.joined(separator: " "))")
        try await BrowserProcess.run(executable, arguments, logger: logger)
    }
}
