/// The outbox's keys at the top level of a tenant configuration file (``OutboxConfiguration``):
///
/// ```json
/// {"test_outbox": true, "outbox_file": "/tmp/outbox.jsonl", "otp_lifetime": 180}
/// ```
///
/// **[local]** Auth0 has no outbox; `otp_lifetime` is its passwordless connection's
/// `totp.time_step`, in seconds (1 to 86 400).
struct OutboxFileSettings: Decodable {
    var testOutbox: Bool?
    var outboxFile: String?
    var otpLifetime: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case testOutbox = "test_outbox"
        case outboxFile = "outbox_file"
        case otpLifetime = "otp_lifetime"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        testOutbox = try container.decodeIfPresent(Bool.self, forKey: .testOutbox)
        outboxFile = try container.decodeIfPresent(String.self, forKey: .outboxFile)
        otpLifetime = try container.decodeIfPresent(Int.self, forKey: .otpLifetime)
        if let otpLifetime, !(1...86_400).contains(otpLifetime) {
            throw DecodingError.dataCorruptedError(
                forKey: .otpLifetime, in: container, debugDescription: "must be between 1 and 86400 seconds")
        }
    }

    /// Changes what the file names.
    func apply(to outbox: inout OutboxConfiguration) throws(TenantError) {
        if let testOutbox { outbox.servesTestRoute = testOutbox }
        if let outboxFile {
            guard !outboxFile.isEmpty else { throw TenantError(.invalidConfiguration, "outbox_file: empty") }
            outbox.file = outboxFile
        }
        if let otpLifetime { outbox.otpLifetime = .seconds(otpLifetime) }
    }
}
