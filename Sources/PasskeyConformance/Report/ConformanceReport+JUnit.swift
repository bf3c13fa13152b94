extension ConformanceReport {
    /// The report as JUnit XML (the `testsuites` schema CI servers read): a `testsuite` per group,
    /// a `testcase` per test named by its ID and title, `failure` and `skipped` with their reasons.
    public var junitXML: String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="passkey conformance" tests="\#(tests.count)" failures="\#(failed)" skipped="\#(skipped)">"#
        xml += "\n"
        for group in ConformanceGroup.allCases {
            let results = tests.filter { $0.group == group }
            guard !results.isEmpty else { continue }
            let failures = results.count { $0.outcome == .failed }
            let skips = results.count { $0.outcome == .skipped }
            xml += #"  <testsuite name="\#(group.rawValue) \#(group.title)" tests="\#(results.count)" "#
            xml += #"failures="\#(failures)" skipped="\#(skips)">"# + "\n"
            for result in results {
                let name = Self.escaped("\(result.id): \(result.title)")
                xml += #"    <testcase classname="\#(Self.escaped(server)).\#(group.rawValue)" name="\#(name)""#
                switch result.outcome {
                case .passed:
                    xml += "/>\n"
                case .failed:
                    let message = Self.escaped(result.reason)
                    xml += ">\n" + #"      <failure message="\#(message)">\#(Self.escaped(result.rule))</failure>"#
                    xml += "\n    </testcase>\n"
                case .skipped:
                    xml += ">\n" + #"      <skipped message="\#(Self.escaped(result.reason))"/>"# + "\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Text fit for an XML attribute or element: markup characters as entities, control
    /// characters (which XML 1.0 cannot carry) as spaces.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
