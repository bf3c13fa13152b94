/// Header fields as ``HTTPRequest`` and ``HTTPResponse`` both keep them: name and value pairs in
/// wire order, a name repeated when the field is. The lookup and comparison both messages use.
enum HeaderFields {
    /// The value of the first field named `name`, compared case-insensitively (RFC 9110 §5.1).
    static func value(of name: String, in fields: [(name: String, value: String)]) -> String? {
        let name = name.lowercased()
        return fields.first { $0.name.lowercased() == name }?.value
    }

    /// Whether two lists hold the same fields in the same order, names compared as written.
    static func equal(_ lhs: [(name: String, value: String)], _ rhs: [(name: String, value: String)]) -> Bool {
        lhs.elementsEqual(rhs) { $0.name == $1.name && $0.value == $1.value }
    }
}
