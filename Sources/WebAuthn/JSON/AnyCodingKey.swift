/// A coding key for a JSON member named at run time: the members of a ``JSONObject``'s table,
/// and the extensions this library does not model, which WebAuthn passes through (WebAuthn L3
/// §9: clients and relying parties ignore extensions they do not recognise).
struct AnyCodingKey: CodingKey, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}
