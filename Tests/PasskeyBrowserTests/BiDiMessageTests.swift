import Testing

@testable import PasskeyBrowser

/// The WebDriver BiDi commands sent to Firefox and the reading of its answers.
@Suite struct BiDiMessageTests {
    @Test func commandsAreTheProtocolsJSON() {
        #expect(
            BiDiMessage.command(id: 1, method: BiDiMessage.NewSession.method, params: BiDiMessage.NewSession())
                == #"{"id":1,"method":"session.new","params":{"capabilities":{"alwaysMatch":"#
                + #"{"unhandledPromptBehavior":{"default":"ignore"}}}}}"#)
        #expect(
            BiDiMessage.command(id: 3, method: BiDiMessage.GetTree.method, params: BiDiMessage.GetTree())
                == #"{"id":3,"method":"browsingContext.getTree","params":{"maxDepth":0}}"#)
        #expect(
            BiDiMessage.command(
                id: 4, method: BiDiMessage.Navigate.method,
                params: BiDiMessage.Navigate(context: "c1", url: "https://example.com/a?b=c"))
                == #"{"id":4,"method":"browsingContext.navigate","params":"#
                + #"{"context":"c1","url":"https://example.com/a?b=c","wait":"none"}}"#)
    }

    @Test func thePreloadScriptIsAFunctionAroundTheScript() {
        let script = "(function softpasskeyBridge(config) {})({});\n// a trailing comment"
        #expect(
            BiDiMessage.AddPreloadScript(script: script).functionDeclaration == "() => {\n" + script + "\n}")
        #expect(
            BiDiMessage.command(
                id: 2, method: BiDiMessage.AddPreloadScript.method, params: BiDiMessage.AddPreloadScript(script: "x()"))
                == #"{"id":2,"method":"script.addPreloadScript","params":{"functionDeclaration":"() => {\nx()\n}"}}"#)
    }

    @Test func theAnswerToTheCommandIsItsResult() throws {
        let tree = try BiDiMessage.answer(
            #"{"type":"success","id":3,"result":{"contexts":[{"context":"abc","url":"about:blank","children":null}]}}"#,
            to: 3, as: BiDiMessage.Tree.self)
        #expect(tree?.contexts.map(\.context) == ["abc"])
    }

    @Test func eventsAndOtherAnswersAreSkipped() throws {
        #expect(
            try BiDiMessage.answer(#"{"type":"success","id":2,"result":{}}"#, to: 3, as: BiDiMessage.Ignored.self)
                == nil)
        #expect(
            try BiDiMessage.answer(
                #"{"type":"event","method":"log.entryAdded","params":{}}"#, to: 3, as: BiDiMessage.Ignored.self) == nil)
    }

    @Test func anErrorAnswerIsADriverFailureWithTheAgentsWords() throws {
        let error = try #require(throws: BrowserError.self) {
            try BiDiMessage.answer(
                #"{"type":"error","id":1,"error":"session not created","message":"Maximum number of active sessions"}"#,
                to: 1, as: BiDiMessage.Ignored.self)
        }
        #expect(error.code == .driverFailed)
        #expect(error.reason == "session not created: Maximum number of active sessions")
    }

    @Test(arguments: ["", "not json", #"{"id":1}"#, #"{"type":"success","id":1,"result":{"contexts":7}}"#])
    func aMessageOutsideTheGrammarIsADriverFailure(text: String) {
        #expect(throws: BrowserError(.driverFailed, "")) {
            try BiDiMessage.answer(text, to: 1, as: BiDiMessage.Tree.self)
        }
    }
}
