/// A wire member the server may leave out, read as empty (`[]`) when it is absent or `null`,
/// so that the type around it keeps its synthesized `Decodable`.
///
/// ```swift
/// @MissingIsEmpty public private(set) var identities: [Identity]
/// ```
@propertyWrapper
public struct MissingIsEmpty<Value: RangeReplaceableCollection & Decodable & Hashable & Sendable>: Decodable, Hashable,
    Sendable
{
    /// The members, empty when the wire left them out.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    ///
    /// - Parameter wrappedValue: the members.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes a present member.
    ///
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when the value is not a `Value`.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// What synthesized `init(from:)` calls for a ``MissingIsEmpty`` member: absent and `null`
    /// read as empty, any other value must decode.
    func decode<Value>(_ type: MissingIsEmpty<Value>.Type, forKey key: Key) throws -> MissingIsEmpty<Value> {
        MissingIsEmpty(wrappedValue: try decodeIfPresent(Value.self, forKey: key) ?? Value())
    }
}
