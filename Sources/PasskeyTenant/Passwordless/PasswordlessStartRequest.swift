import WebAuthn

/// `POST /passwordless/start`'s body, as Auth0's Authentication API reads it (Auth0 docs, "Get
/// Code or Link"), in JSON or as a form:
///
/// ```json
/// {"client_id": "…", "client_secret": "…", "connection": "email", "email": "ada@example.com",
///  "send": "code", "authParams": {"scope": "openid", "redirect_uri": "https://app/callback"}}
/// ```
///
/// `client_secret` is a regular web application's (or `Authorization: Basic`); `phone_number`
/// replaces `email` for `connection: "sms"`; `send` is `link` when absent, as on Auth0 (**[local]**
/// `code` for `sms`, which sends no link); `authParams`
/// are a magic link's authorization parameters.
struct PasswordlessStartRequest: Sendable, Hashable, Decodable {
    var clientID: String
    var clientSecret: Secret?
    var connection: String?
    var email: String?
    var phoneNumber: String?
    var send: String?
    /// The magic link's authorization parameters: `redirect_uri`, `response_type`, `scope`,
    /// `state`, `nonce`, `audience`, `code_challenge`, `code_challenge_method`.
    var authParams: [String: String]?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - clientID: the application.
    ///   - connection: `email` or `sms`.
    ///   - email: the address, for `email`.
    ///   - phoneNumber: the number, E.164, for `sms`.
    ///   - send: `code` or `link`.
    ///   - authParams: a link's authorization parameters.
    ///   - clientSecret: a confidential client's secret.
    init(
        clientID: String, connection: String?, email: String? = nil, phoneNumber: String? = nil,
        send: String? = nil, authParams: [String: String]? = nil, clientSecret: Secret? = nil
    ) {
        self.clientID = clientID
        self.connection = connection
        self.email = email
        self.phoneNumber = phoneNumber
        self.send = send
        self.authParams = authParams
        self.clientSecret = clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case phoneNumber = "phone_number"
        case connection, email, send, authParams
    }

    /// Reads a body whose `client_id` may be absent (the client authenticates with
    /// `Authorization: Basic`): read as empty then.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        clientID = try container.decodeIfPresent(String.self, forKey: .clientID) ?? ""
        clientSecret = try container.decodeIfPresent(Secret.self, forKey: .clientSecret)
        connection = try container.decodeIfPresent(String.self, forKey: .connection)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        send = try container.decodeIfPresent(String.self, forKey: .send)
        authParams = try container.decodeIfPresent([String: String].self, forKey: .authParams)
    }
}

/// `POST /passwordless/start`'s answer, as Auth0 gives it: the (local) user's ID and the address.
///
/// ```json
/// {"_id": "5f7c8ec7c33c6c004bbafe82", "email": "ada@example.com", "email_verified": false}
/// {"_id": "5f7c8ec7c33c6c004bbafe82", "phone_number": "+15555550100"}
/// ```
///
/// **[local]** `_id` is the 24 hex digits of the user the code logs in (`email|<_id>`,
/// `sms|<_id>`), whether the user exists yet or not; `email_verified` says whether that user has
/// logged in with a code already.
struct PasswordlessStartResponse: Sendable, Hashable, Encodable {
    var id: String
    var email: String?
    var phoneNumber: String?
    var emailVerified: Bool?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email
        case phoneNumber = "phone_number"
        case emailVerified = "email_verified"
    }
}
