import FoundationEssentials

/// The WebDriver BiDi messages of the relay in Firefox (``BrowserRelay``): the preload script's
/// channel, its `script.message` events, the realms' origins, and the answer called into a realm.
extension BiDiMessage {
    /// The channel a preload script gets as its argument (WebDriver BiDi, "script.ChannelValue"),
    /// owning what it sends (`ownership: "root"`), so that a function sent over it arrives with a
    /// handle the driver can call it by.
    package struct ChannelValue: Encodable, Sendable, Hashable {
        package let type = "channel"
        package let value: Properties

        package struct Properties: Encodable, Sendable, Hashable {
            package let channel: String
            package let ownership = "root"
        }

        /// The channel named `channel`.
        package init(_ channel: String) {
            value = Properties(channel: channel)
        }
    }

    /// `session.subscribe` (WebDriver BiDi, "The session.subscribe Command") to events by name.
    package struct Subscribe: Encodable, Sendable {
        package static let method = "session.subscribe"
        package let events: [String]

        package init(events: [String]) {
            self.events = events
        }
    }

    /// The `script.message` event's parameters (WebDriver BiDi, "The script.message Event"):
    /// what a realm sent on a channel, and the realm (and its browsing context) that sent it.
    package struct Message: Decodable, Sendable {
        package static let method = "script.message"
        package let channel: String
        package let data: RemoteValue
        package let source: Source

        package struct Source: Decodable, Sendable {
            package let realm: String
            package let context: String?
        }
    }

    /// A serialized value (WebDriver BiDi, "script.RemoteValue"): a string's `value`, an owned
    /// object's `handle`.
    package struct RemoteValue: Decodable, Sendable {
        package let type: String
        package let value: String?
        package let handle: String?

        enum CodingKeys: String, CodingKey {
            case type, value, handle
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            // Only a string's value is read; other types' values (arrays, numbers) are not.
            value = type == "string" ? try container.decodeIfPresent(String.self, forKey: .value) : nil
            handle = try container.decodeIfPresent(String.self, forKey: .handle)
        }
    }

    /// `script.getRealms` (WebDriver BiDi, "The script.getRealms Command") of one browsing
    /// context's windows.
    package struct GetRealms: Encodable, Sendable {
        package static let method = "script.getRealms"
        package let context: String
        package let type = "window"

        package init(context: String) {
            self.context = context
        }
    }

    /// The result of ``GetRealms``: each realm's ID, its origin (the serialization of its
    /// settings object's origin, `"null"` when opaque) and its sandbox, if any.
    package struct Realms: Decodable, Sendable {
        package let realms: [Info]

        package struct Info: Decodable, Sendable {
            package let realm: String
            package let origin: String
            package let sandbox: String?
        }
    }

    /// `script.callFunction` (WebDriver BiDi, "The script.callFunction Command"): the function
    /// a realm sent (its handle as `this`) called there with one string, not awaited.
    package struct CallFunction: Encodable, Sendable {
        package static let method = "script.callFunction"
        package let functionDeclaration = "function (text) { this(text); }"
        package let this: Handle
        package let arguments: [StringValue]
        package let target: Target
        package let awaitPromise = false
        package let resultOwnership = "none"

        package struct Handle: Encodable, Sendable {
            package let handle: String
        }

        package struct StringValue: Encodable, Sendable {
            package let type = "string"
            package let value: String
        }

        package struct Target: Encodable, Sendable {
            package let realm: String
        }

        /// Calls the function `handle` refers to in `realm` with `text`.
        package init(handle: String, realm: String, text: String) {
            this = Handle(handle: handle)
            arguments = [StringValue(value: text)]
            target = Target(realm: realm)
        }
    }

    /// What a message from the remote agent is: the answer to a command (its ID), or an event
    /// (its method and its parameters' JSON).
    package enum Kind: Sendable {
        case answer(Int)
        case event(String)
        case other
    }

    /// Classifies a message from the remote agent.
    ///
    /// - Parameter text: the message.
    /// - Returns: its kind; ``Kind/other`` for what is not WebDriver BiDi.
    package static func kind(of text: String) -> Kind {
        struct Head: Decodable {
            let type: String?
            let id: Int?
            let method: String?
        }
        guard let head = try? JSONDecoder().decode(Head.self, from: Data(text.utf8)) else { return .other }
        if head.type == "event", let method = head.method {
            return .event(method)
        }
        if let id = head.id {
            return .answer(id)
        }
        return .other
    }

    /// An event's parameters.
    ///
    /// - Parameters:
    ///   - text: the event message.
    ///   - type: the parameters' type.
    /// - Returns: the parameters, or `nil` when they are not of that type.
    package static func parameters<Parameters: Decodable>(of text: String, as type: Parameters.Type) -> Parameters? {
        try? JSONDecoder().decode(Event<Parameters>.self, from: Data(text.utf8)).params
    }

    private struct Event<Parameters: Decodable>: Decodable {
        let params: Parameters
    }
}
