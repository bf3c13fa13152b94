/// An ordered tree of labelled values: what `passkey inspect` shows, as text or as JSON.
struct Report {
    /// One value of a report.
    indirect enum Value {
        case text(String)
        case number(Int)
        case flag(Bool)
        case list([Value])
        case report(Report)
    }

    private(set) var fields: [(label: String, value: Value)] = []

    /// Adds a field; a nil value adds nothing.
    mutating func add(_ label: String, _ value: Value?) {
        if let value { fields.append((label, value)) }
    }

    // MARK: Text

    /// Indented `label  value` lines, labels aligned within each block.
    var text: String {
        lines(indent: "").joined(separator: "\n")
    }

    private func lines(indent: String) -> [String] {
        let width = fields.map(\.label.count).max() ?? 0
        return fields.flatMap { label, value -> [String] in
            let padded = indent + label + String(repeating: " ", count: width - label.count)
            switch value {
            case .report(let report): return [indent + label] + report.lines(indent: indent + "  ")
            case .list(let items) where items.contains(where: \.isReport):
                return items.enumerated().flatMap { index, item -> [String] in
                    guard case .report(let report) = item else {
                        return ["\(indent)\(label)[\(index)]  \(item.inline)"]
                    }
                    return ["\(indent)\(label)[\(index)]"] + report.lines(indent: indent + "  ")
                }
            default: return ["\(padded)  \(value.inline)"]
            }
        }
    }

    // MARK: JSON

    /// The report as a JSON object, in field order.
    var json: String { Value.report(self).json }
}

extension Report.Value {
    var isReport: Bool {
        if case .report = self { true } else { false }
    }

    /// The value on one line.
    var inline: String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        case .flag(let flag): String(flag)
        case .list(let items): items.map(\.inline).joined(separator: " ")
        case .report(let report): report.fields.map { "\($0.label)=\($0.value.inline)" }.joined(separator: " ")
        }
    }

    var json: String {
        switch self {
        case .text(let text): Self.quoted(text)
        case .number(let number): String(number)
        case .flag(let flag): String(flag)
        case .list(let items): "[" + items.map(\.json).joined(separator: ",") + "]"
        case .report(let report):
            "{" + report.fields.map { Self.quoted($0.label) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal (RFC 8259 §7).
    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
