public import WebAuthn

/// `POST /u/passkey/options`'s body: the page's transaction, the ceremony and, for signup, the
/// identifier (the page API). **[local]**
///
/// ```
/// { "transaction": string, "mode": "login" | "signup", "identifier"?: string }
/// ```
public struct PageOptionsRequest: Sendable, Hashable, Codable {
    /// The transaction ID of the page (`data-transaction`).
    public var transaction: String
    /// `login` or `signup`.
    public var mode: String
    /// The new user's email, for signup.
    public var identifier: String?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - transaction: the page's transaction ID.
    ///   - mode: `login` or `signup`.
    ///   - identifier: the new user's email, for signup.
    public init(transaction: String, mode: String, identifier: String? = nil) {
        self.transaction = transaction
        self.mode = mode
        self.identifier = identifier
    }
}

/// `POST /u/passkey/options`'s answer: the options of `navigator.credentials.get` or `.create`,
/// as WebAuthn L3 §5.1.10's JSON (base64url members). **[local]**
///
/// ```
/// { "mode": "get", "publicKey": PublicKeyCredentialRequestOptionsJSON }
/// { "mode": "create", "publicKey": PublicKeyCredentialCreationOptionsJSON }
/// ```
public enum PageOptionsResponse: Sendable, Hashable, Codable {
    /// A login: discoverable, no `allowCredentials`.
    case get(PublicKeyCredentialRequestOptionsJSON)
    /// A signup.
    case create(PublicKeyCredentialCreationOptionsJSON)

    enum CodingKeys: String, CodingKey {
        case mode, publicKey
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .mode) {
        case "get": self = .get(try container.decode(PublicKeyCredentialRequestOptionsJSON.self, forKey: .publicKey))
        case "create":
            self = .create(try container.decode(PublicKeyCredentialCreationOptionsJSON.self, forKey: .publicKey))
        default:
            throw DecodingError.dataCorruptedError(forKey: .mode, in: container, debugDescription: "not get or create")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .get(let options):
            try container.encode("get", forKey: .mode)
            try container.encode(options, forKey: .publicKey)
        case .create(let options):
            try container.encode("create", forKey: .mode)
            try container.encode(options, forKey: .publicKey)
        }
    }
}

/// `POST /u/passkey/verify`'s body: the page's transaction and `PublicKeyCredential.toJSON()`.
/// **[local]**
///
/// ```
/// { "transaction": string, "credential": RegistrationResponseJSON | AuthenticationResponseJSON }
/// ```
public struct PageVerifyRequest: Sendable, Hashable, Codable {
    /// The transaction ID of the page.
    public var transaction: String
    /// The credential, read as the pending ceremony says.
    public var credential: PasskeyResponse

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - transaction: the page's transaction ID.
    ///   - credential: the ceremony's answer.
    public init(transaction: String, credential: PasskeyResponse) {
        self.transaction = transaction
        self.credential = credential
    }
}

/// `POST /u/passkey/verify`'s answer: where the page sends the browser, the redirect URI with
/// `code` and `state` (RFC 6749 §4.1.2). **[local]**
///
/// The URL carries the authorization code, so it is a ``Secret``: it never prints.
public struct PageVerifyResponse: Sendable, Hashable, Codable {
    /// `<redirect_uri>?code=…&state=…`.
    public var redirect: Secret

    /// Creates an answer.
    ///
    /// - Parameter redirect: the URL.
    public init(redirect: Secret) {
        self.redirect = redirect
    }
}

/// `POST /u/passkey/cancel`'s body: the page's transaction. **[local]**
///
/// ```
/// { "transaction": string }
/// ```
public struct PageCancelRequest: Sendable, Hashable, Codable {
    /// The transaction ID of the page.
    public var transaction: String

    /// Creates a request.
    ///
    /// - Parameter transaction: the page's transaction ID.
    public init(transaction: String) {
        self.transaction = transaction
    }
}
