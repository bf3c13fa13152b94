import Foundation
import Testing
import WebAuthn

@testable import PasskeyBrowser

/// The relay's plumbing: the Chromium extension's manifest and files with a relay, and the
/// WebDriver BiDi messages of the relay in Firefox.
@Suite struct BrowserRelayTests {
    private let relay = BrowserRelay(
        capability: "relay-capability-5e1d", endpoint: "http://127.0.0.1:4711/bridge",
        socket: "ws://127.0.0.1:4711/bridge/socket")

    private var launch: BrowserLaunch {
        BrowserLaunch(
            engine: .chromium, executable: "/usr/bin/chromium", url: "https://example.com/login", script: "1;",
            loopbackServices: ["127.0.0.1:4711"], relay: relay)
    }

    @Test func withARelayTheExtensionHasAnIsolatedScriptAndAWorker() throws {
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(ChromiumExtension.manifestJSON(relay: true)))
        guard case .object(let members) = manifest, case .array(let scripts)? = members["content_scripts"],
            scripts.count == 2, case .object(let main) = scripts[0], case .object(let isolated) = scripts[1]
        else {
            Issue.record("manifest.json has not two content scripts: \(manifest)")
            return
        }
        #expect(main["world"] == .string("MAIN"))
        #expect(main["js"] == .array([.string("relay-main.js"), .string(ChromiumExtension.scriptFile)]))
        #expect(isolated["world"] == .string("ISOLATED"))
        #expect(isolated["js"] == .array([.string("relay-content.js")]))
        for script in [main, isolated] {
            #expect(script["run_at"] == .string("document_start"))
            #expect(script["all_frames"] == .bool(true))
            #expect(script["match_about_blank"] == .bool(true))
            #expect(script["match_origin_as_fallback"] == .bool(true))
        }
        #expect(members["background"] == .object(["service_worker": .string("relay-worker.js")]))
        #expect(members["permissions"] == .array([.string("tabs")]))
        #expect(members["host_permissions"] == .array([.string("http://127.0.0.1/*")]))
    }

    @Test func theWorkerStartsWithTheRelaysConfiguration() throws {
        let files = Dictionary(uniqueKeysWithValues: ChromiumExtension.files(launch).map { ($0.name, $0.bytes) })
        #expect(
            Set(files.keys) == ["manifest.json", "bridge.js", "relay-main.js", "relay-content.js", "relay-worker.js"])
        let worker = String(decoding: try #require(files["relay-worker.js"]), as: UTF8.self)
        #expect(
            worker.hasPrefix(
                #"const relayConfig = {"capability":"relay-capability-5e1d","endpoint":"http://127.0.0.1:4711/bridge","#
                    + #""socket":"ws://127.0.0.1:4711/bridge/socket"};"# + "\n"))
        #expect(worker.contains("chrome.runtime.onConnect.addListener"))
        #expect(files["bridge.js"] == Array("1;".utf8))

        var plain = launch
        plain.relay = nil
        #expect(ChromiumExtension.files(plain).map(\.name) == ["manifest.json", "bridge.js"])
        #expect(ChromiumExtension.files(plain)[0].bytes == ChromiumExtension.manifestJSON)
    }

    @Test func theRelayDescribesItselfWithoutTheCapability() {
        #expect(!String(describing: relay).contains("5e1d"))
        #expect(!String(reflecting: relay).contains("5e1d"))
        var dumped = ""
        dump(launch, to: &dumped)
        dump(relay, to: &dumped)
        #expect(!dumped.contains("5e1d"))
    }

    @Test func theFirefoxPreloadScriptTakesTheChannel() {
        let preload = FirefoxRelay.preload("bridge();")
        #expect(preload.functionDeclaration.hasPrefix("(channel) => {\n"))
        #expect(preload.functionDeclaration.hasSuffix("\nbridge();\n}"))
        #expect(
            BiDiMessage.command(
                id: 2, method: BiDiMessage.AddPreloadScript.method,
                params: BiDiMessage.AddPreloadScript(script: "x()", channel: BiDiMessage.ChannelValue("c")))
                == #"{"id":2,"method":"script.addPreloadScript","params":{"arguments":[{"type":"channel","#
                + #""value":{"channel":"c","ownership":"root"}}],"functionDeclaration":"(channel) => {\nx()\n}"}}"#)
    }

    @Test func theRelaysCommandsAreTheProtocolsJSON() {
        #expect(
            BiDiMessage.command(id: 5, method: BiDiMessage.GetTree.method, params: BiDiMessage.GetTree(root: "f1"))
                == #"{"id":5,"method":"browsingContext.getTree","params":{"maxDepth":0,"root":"f1"}}"#)
        #expect(
            BiDiMessage.command(
                id: 6, method: BiDiMessage.GetRealms.method, params: BiDiMessage.GetRealms(context: "f1"))
                == #"{"id":6,"method":"script.getRealms","params":{"context":"f1","type":"window"}}"#)
        #expect(
            BiDiMessage.command(
                id: 7, method: BiDiMessage.CallFunction.method,
                params: BiDiMessage.CallFunction(handle: "h1", realm: "r1", text: #"{"id":1}"#))
                == #"{"id":7,"method":"script.callFunction","params":{"arguments":[{"type":"string","value":"{\"id\":1}"}],"#
                + #""awaitPromise":false,"functionDeclaration":"function (text) { this(text); }","#
                + #""resultOwnership":"none","target":{"realm":"r1"},"this":{"handle":"h1"}}}"#)
    }

    @Test func messagesAreAnswersOrEventsAndAScriptMessageReadsBack() throws {
        guard case .answer(3) = BiDiMessage.kind(of: #"{"type":"success","id":3,"result":{}}"#) else {
            Issue.record("an answer is not read as one")
            return
        }
        let event =
            #"{"type":"event","method":"script.message","params":{"channel":"c","#
            + #""data":{"type":"string","value":"{\"id\":1}"},"source":{"realm":"r1","context":"f1"}}}"#
        guard case .event("script.message") = BiDiMessage.kind(of: event) else {
            Issue.record("an event is not read as one")
            return
        }
        guard case .other = BiDiMessage.kind(of: "garbage") else {
            Issue.record("garbage is read as BiDi")
            return
        }
        let message = try #require(BiDiMessage.parameters(of: event, as: BiDiMessage.Message.self))
        #expect(message.channel == "c" && message.source.realm == "r1" && message.source.context == "f1")
        #expect(message.data.type == "string" && message.data.value == #"{"id":1}"# && message.data.handle == nil)
        let function =
            #"{"type":"event","method":"script.message","params":{"channel":"c","#
            + #""data":{"type":"function","handle":"h9"},"source":{"realm":"r1"}}}"#
        let sent = try #require(BiDiMessage.parameters(of: function, as: BiDiMessage.Message.self))
        #expect(sent.data.type == "function" && sent.data.handle == "h9" && sent.data.value == nil)
        let number =
            #"{"type":"event","method":"script.message","params":{"channel":"c","#
            + #""data":{"type":"number","value":42},"source":{"realm":"r1"}}}"#
        #expect(BiDiMessage.parameters(of: number, as: BiDiMessage.Message.self)?.data.value == nil)
    }
}
