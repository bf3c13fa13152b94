import Foundation

/// What a command prints on success: text for people, JSON for programs.
protocol CommandOutput: Encodable {
    /// The text a person reads.
    var text: String { get }
}

/// Prints a command's result on standard output: pretty JSON with `json`, else its text (an
/// empty text prints nothing).
func printOutput(_ output: some CommandOutput, json: Bool) {
    if json {
        printJSON(output)
    } else if !output.text.isEmpty {
        print(output.text)
    }
}

/// Writes a value to standard output as pretty JSON with sorted keys: the one encoder of every
/// `--json` result but the WebAuthn JSON of `create` and `get` (``printWebAuthnJSON(_:)``).
func printJSON(_ value: some Encodable) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Every printed value is made of strings, integers and booleans, which always encode.
    print(String(decoding: try! encoder.encode(value), as: UTF8.self))
}

/// Standard output, where results go (diagnostics go to standard error).
enum StandardOutput {
    /// Whether `create`, `get` and `verify` print JSON: with `--json`, or when standard output is
    /// not a terminal (`isatty(3)`: a pipe or a file), so scripts that read them keep getting the
    /// JSON they always got; a person at a terminal reads text.
    ///
    /// - Parameter forced: whether `--json` was given.
    static func printsJSON(forced: Bool) -> Bool {
        forced || isatty(STDOUT_FILENO) != 1
    }
}

/// Prints the response of `create` or `get`: its WebAuthn JSON on one line when
/// ``StandardOutput/printsJSON(forced:)``, else `text` for a person (the JSON again should the
/// response not decode for it).
func printCeremonyResponse(_ response: some Encodable, json: Bool, text: () throws -> String) {
    guard !StandardOutput.printsJSON(forced: json), let text = try? text() else {
        printWebAuthnJSON(response)
        return
    }
    print(text)
}
