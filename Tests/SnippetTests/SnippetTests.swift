import Foundation
import Testing

/// Every Swift sample of README.md and of the DocC articles compiles: each is, white space aside,
/// the code between a pair of snippet markers in a Swift file of the tests (`Snippets.swift`, or
/// a test that runs it), and its imports are that file's.
@Suite struct SnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func documents() throws -> [String] {
        var paths = ["README.md"]
        let sources = root.appendingPathComponent("Sources").path
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
            for catalog in try FileManager.default.contentsOfDirectory(atPath: sources + "/" + module)
            where catalog.hasSuffix(".docc") {
                let directory = "Sources/\(module)/\(catalog)"
                for article in try FileManager.default.contentsOfDirectory(
                    atPath: root.appendingPathComponent(directory).path)
                where article.hasSuffix(".md") {
                    paths.append(directory + "/" + article)
                }
            }
        }
        return paths
    }

    @Test(arguments: try documents())
    func everySampleIsCompiledCode(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let snippets = try Self.snippets()
        for sample in Self.sections(of: text, from: "```swift\n", to: "```") {
            let lines = sample.split(separator: "\n", omittingEmptySubsequences: false)
            let imports = lines.filter { $0.hasPrefix("import ") }.map(String.init)
            let code = Self.squeezed(lines.filter { !$0.hasPrefix("import ") }.joined(separator: "\n"))
            let match = snippets.first { $0.code == code }
            #expect(match != nil, "\(document): this sample is not compiled anywhere:\n\(sample)")
            for line in imports {
                #expect(match?.file.contains("\n" + line + "\n") == true, "\(document): \(line) is not the file's")
            }
        }
    }

    /// The code between snippet markers in every Swift file of the tests, without its imports
    /// and white space.
    static func snippets() throws -> [(code: String, file: String)] {
        let tests = root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.flatMap { name in
            let file = try String(contentsOf: tests.appendingPathComponent(name), encoding: .utf8)
            return sections(of: file, from: "// snippet.begin\n", to: "// snippet.end").map { section in
                let code = section.split(separator: "\n").filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
                return (squeezed(code), "\n" + file)
            }
        }
    }

    static func sections(of text: String, from start: String, to end: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let begin = rest.range(of: start), let finish = rest[begin.upperBound...].range(of: end) {
            found.append(String(rest[begin.upperBound..<finish.lowerBound]))
            rest = rest[finish.upperBound...]
        }
        return found
    }

    /// The text without white space, so that formatting and indentation do not count.
    static func squeezed(_ text: String) -> String {
        String(text.filter { !$0.isWhitespace })
    }
}
