/// Logins per second of one kind (web, federated) beside native logins with K clients, measured
/// alternately, and their ratio: one figure of ``WebLoginBench`` and ``FederatedLoginBench``.
/// Encoded with the kind's key for the rate (`webLoginsPerSecond`, `federatedLoginsPerSecond`),
/// the JSON the bench has always printed.
struct LoginsBesideNative: Encodable {
    let clients: Int
    /// The JSON key of ``loginsPerSecond``.
    let key: String
    let loginsPerSecond: Double
    let nativeLoginsPerSecond: Double

    /// Logins of the kind ÷ native logins.
    var ratio: Double? { nativeLoginsPerSecond > 0 ? loginsPerSecond / nativeLoginsPerSecond : nil }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(clients, forKey: Key(stringValue: "clients"))
        try container.encode(loginsPerSecond, forKey: Key(stringValue: key))
        try container.encode(nativeLoginsPerSecond, forKey: Key(stringValue: "nativeLoginsPerSecond"))
        try container.encodeIfPresent(ratio, forKey: Key(stringValue: "ratio"))
    }
}
