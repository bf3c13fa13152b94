import Foundation
import Testing

/// The DocC article shows a test that runs: its code block is the code of `AHundredUsersTests.swift`.
@Suite struct DocumentationTests {
    @Test func theArticleShowsTheTestThatRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let test = try String(contentsOf: root.appendingPathComponent("AHundredUsersTests.swift"), encoding: .utf8)
        let article = try String(
            contentsOf: root.appendingPathComponent(
                "../../Sources/PasskeyKit/PasskeyKit.docc/TestingWithVirtualUsers.md"
            )
            .standardizedFileURL,
            encoding: .utf8)
        let snippet = try #require(section(of: test, from: "// snippet.begin\n", to: "// snippet.end"))
        let block = try #require(section(of: article, from: "```swift\n", to: "```"))
        #expect(block == snippet)
    }

    private func section(of text: String, from start: String, to end: String) -> String? {
        guard let begin = text.range(of: start),
            let finish = text.range(of: end, range: begin.upperBound..<text.endIndex)
        else { return nil }
        return String(text[begin.upperBound..<finish.lowerBound])
    }
}
