/// A string or a list of strings in a vector file (`expected_origin` is either).
public struct OneOrMany: Decodable, Sendable {
    /// The string, or the strings of the list.
    public let values: [String]

    /// Decodes a string or a list of strings.
    ///
    /// - Parameter decoder: a decoder holding a string or an array of strings.
    /// - Throws: when the value is neither.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }
}
