import WebAuthn

/// An error from Auth0's My Account API (`/me/v1/…`), or one this library made when there was no
/// usable answer (spec §7.2, §7.3).
///
/// The body is a problem document: `{"type", "status", "title", "detail", "validation_errors"}`.
/// ``code`` is `type`, else `code`, else `a0.sdk.internal_error.unknown`; ``title`` is `title`,
/// else `description`; the HTTP status is ``statusCode`` (the body's `status` is not read).
///
/// Two errors are equal when their codes are equal.
public struct MyAccountError: Auth0APIError, Hashable {
    /// One problem with one member of the request.
    public struct ValidationError: Sendable, Hashable {
        /// What is wrong.
        public let detail: String
        /// The member, when the server names it.
        public let field: String?
        /// A JSON pointer to the member; `nil` when the server sent none or an empty one.
        public let pointer: String?
        /// Where the member was (`body`, `query`, …).
        public let source: String?
    }

    public let report: Auth0ErrorReport

    public init(_ report: Auth0ErrorReport) {
        self.report = report
    }

    /// `type`, else `code`, else `a0.sdk.internal_error.unknown`.
    public var code: AuthenticationError.Code {
        if let type = info["type"]?.stringValue { return .init(rawValue: type) }
        if let code = info["code"]?.stringValue { return .init(rawValue: code) }
        return .unknown
    }

    /// `title`, else `description`, else empty.
    public var title: String { info["title"]?.stringValue ?? info["description"]?.stringValue ?? "" }

    /// `detail`, else empty.
    public var detail: String { info["detail"]?.stringValue ?? "" }

    /// The `validation_errors` items that have a `detail`.
    public var validationErrors: [ValidationError]? {
        guard case .array(let items)? = info["validation_errors"] else { return nil }
        return items.compactMap { item in
            guard let member = item.objectValue, let detail = member["detail"]?.stringValue else { return nil }
            let pointer = member["pointer"]?.stringValue
            return ValidationError(
                detail: detail, field: member["field"]?.stringValue, pointer: pointer?.isEmpty == true ? nil : pointer,
                source: member["source"]?.stringValue)
        }
    }

    /// `"<title>: <detail>."`, or `"<title>."` without a detail.
    public var reason: String {
        Self.sentence(detail.isEmpty ? title : "\(title): \(detail)")
    }

}
