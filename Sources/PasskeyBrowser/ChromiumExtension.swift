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
/// Without a relay it asks for no permission: a content script needs none, and the page's own
/// `fetch` (with the page's origin) is what reaches the bridge. With a relay (``BrowserRelay``)
/// the `MAIN` script runs `relay-main.js` just before `bridge.js`, a second content script runs
/// in the isolated world of every frame (`relay-content.js`), and a service worker
/// (`relay-worker.js`, after the relay's configuration) calls the control server; it asks for
/// `tabs` (to read a frame's top-level URL, `sender.tab.url`) and for the loopback host:
///
/// ```
///   "content_scripts": [{ …, "js": ["relay-main.js", "bridge.js"], "world": "MAIN" },
///                       { …, "js": ["relay-content.js"], "world": "ISOLATED" }],
///   "background": { "service_worker": "relay-worker.js" },
///   "permissions": ["tabs"], "host_permissions": ["http://127.0.0.1/*"]
/// ```
package struct ChromiumExtension: Sendable {
    /// The script file's name inside the extension.
    package static let scriptFile = "bridge.js"
    /// The relay's files inside the extension: the `MAIN` world's, the isolated world's, the worker's.
    package static let relayFiles = (main: "relay-main.js", content: "relay-content.js", worker: "relay-worker.js")

    /// `manifest.json` (chrome.com "Manifest file format", "content_scripts", "background").
    package struct Manifest: Encodable, Sendable {
        package let manifestVersion = 3
        package let name = "SoftPasskey page bridge"
        package let version = "1.0"
        package let description = "Answers this browser's WebAuthn requests with SoftPasskey (passkey browser)."
        package let contentScripts: [ContentScript]
        package let background: Background?
        package let permissions: [String]?
        package let hostPermissions: [String]?

        /// The manifest, with the relay's scripts and worker or without.
        package init(relay: Bool) {
            guard relay else {
                contentScripts = [ContentScript(js: [ChromiumExtension.scriptFile], world: "MAIN")]
                background = nil
                permissions = nil
                hostPermissions = nil
                return
            }
            let files = ChromiumExtension.relayFiles
            contentScripts = [
                ContentScript(js: [files.main, ChromiumExtension.scriptFile], world: "MAIN"),
                ContentScript(js: [files.content], world: "ISOLATED"),
            ]
            background = Background(serviceWorker: files.worker)
            permissions = ["tabs"]
            hostPermissions = ["http://127.0.0.1/*"]
        }

        enum CodingKeys: String, CodingKey {
            case manifestVersion = "manifest_version"
            case name, version, description, background, permissions
            case contentScripts = "content_scripts"
            case hostPermissions = "host_permissions"
        }
    }

    /// A content script: in every frame, at `document_start`.
    package struct ContentScript: Encodable, Sendable {
        package let matches = ["<all_urls>"]
        package let js: [String]
        package let runAt = "document_start"
        package let allFrames = true
        package let matchAboutBlank = true
        package let matchOriginAsFallback = true
        package let world: String

        enum CodingKeys: String, CodingKey {
            case matches, js
            case runAt = "run_at"
            case allFrames = "all_frames"
            case matchAboutBlank = "match_about_blank"
            case matchOriginAsFallback = "match_origin_as_fallback"
            case world
        }
    }

    /// The extension's service worker.
    package struct Background: Encodable, Sendable {
        package let serviceWorker: String

        enum CodingKeys: String, CodingKey {
            case serviceWorker = "service_worker"
        }
    }

    /// `manifest.json`'s bytes, without a relay.
    package static var manifestJSON: [UInt8] { manifestJSON(relay: false) }

    /// `manifest.json`'s bytes.
    ///
    /// - Parameter relay: whether the extension carries the relay.
    /// - Returns: the JSON.
    package static func manifestJSON(relay: Bool) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and booleans only: always encodes.
        return Array(try! encoder.encode(Manifest(relay: relay)))
    }

    /// The extension's files for `launch`: the manifest and the script, and with a relay its
    /// three scripts, the worker's after its configuration (`const relayConfig = {…};`).
    ///
    /// - Parameter launch: what to open.
    /// - Returns: each file's name and bytes.
    package static func files(_ launch: BrowserLaunch) -> [(name: String, bytes: [UInt8])] {
        var files = [
            (name: "manifest.json", bytes: manifestJSON(relay: launch.relay != nil)),
            (name: scriptFile, bytes: Array(launch.script.utf8)),
        ]
        if let relay = launch.relay {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Three strings: always encodes.
            let configuration = try! encoder.encode(
                ["capability": relay.capability, "endpoint": relay.endpoint, "socket": relay.socket])
            files += [
                (name: relayFiles.main, bytes: Array(BrowserRelay.pageScript(PackageResources.relay_main_js).utf8)),
                (name: relayFiles.content, bytes: PackageResources.relay_content_js),
                (
                    name: relayFiles.worker,
                    bytes: Array("const relayConfig = \(String(decoding: configuration, as: UTF8.self));\n".utf8)
                        + PackageResources.relay_worker_js
                ),
            ]
        }
        return files
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
        for file in ChromiumExtension.files(self) {
            try await scratch.save("extension/" + file.name, file.bytes)
        }
        let profile = try await scratch.makeDirectory("profile")
        let arguments = ChromiumExtension.arguments(
            self, extensionDirectory: scratch.path + "/extension", profileDirectory: profile)
        logger.debug("chromium: \(arguments.joined(separator: " "))")
        try await BrowserProcess.run(executable, arguments, logger: logger)
    }
}
