import FoundationEssentials

/// The WebDriver BiDi messages `passkey browser` sends to Firefox's remote agent, and how it reads
/// the answers (W3C WebDriver BiDi, "Transport" and "Protocol"):
///
/// ```
/// Command         = { "id": js-uint, "method": text, "params": { …params } }
/// CommandResponse = { "type": "success", "id": js-uint, "result": { … } }
/// ErrorResponse   = { "type": "error", "id": js-uint / null, "error": ErrorCode,
///                     "message": text, ? "stacktrace": text }
/// Event           = { "type": "event", "method": text, "params": { … } }
/// ```
package enum BiDiMessage {
    /// A command, as text for one WebSocket message.
    ///
    /// - Parameters:
    ///   - id: the command's ID, which its answer repeats.
    ///   - method: the command's name.
    ///   - params: its parameters.
    /// - Returns: the message's JSON text.
    package static func command(id: Int, method: String, params: some Encodable & Sendable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only this file's parameter structs, of strings, numbers and booleans: always encodes.
        return String(decoding: try! encoder.encode(Command(id: id, method: method, params: params)), as: UTF8.self)
    }

    /// Reads a message from the remote agent as the answer to command `id`.
    ///
    /// - Parameters:
    ///   - text: the message.
    ///   - id: the command waited for.
    ///   - type: the type of its `result`.
    /// - Returns: the result, or `nil` when the message is an event or another command's answer.
    /// - Throws: ``BrowserError`` `driver-failed` when the message is not JSON of this grammar, or
    ///   is the command's error answer (with its `error` code and `message`).
    package static func answer<Result: Decodable>(_ text: String, to id: Int, as type: Result.Type)
        throws(BrowserError) -> Result?
    {
        let bytes = Data(text.utf8)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: bytes)
        } catch {
            throw BrowserError(.driverFailed, "the remote agent sent a message that is not WebDriver BiDi")
        }
        switch envelope.type {
        case "success" where envelope.id == id:
            do {
                return try JSONDecoder().decode(Success<Result>.self, from: bytes).result
            } catch {
                throw BrowserError(.driverFailed, "the answer to command \(id) has an unexpected result")
            }
        case "error" where envelope.id == id || envelope.id == nil:
            throw BrowserError(
                .driverFailed, "\(envelope.error ?? "unknown error"): \(envelope.message ?? "no message")")
        default:
            return nil
        }
    }

    private struct Command<Parameters: Encodable & Sendable>: Encodable, Sendable {
        let id: Int
        let method: String
        let params: Parameters
    }

    private struct Envelope: Decodable {
        let type: String
        let id: Int?
        let error: String?
        let message: String?
    }

    private struct Success<Result: Decodable>: Decodable {
        let result: Result
    }

    // MARK: Commands

    /// `session.new` (WebDriver BiDi, "The session.new Command"): no capability but user prompts
    /// left to the person (`unhandledPromptBehavior` `ignore`), since the page is theirs.
    package struct NewSession: Encodable, Sendable {
        package static let method = "session.new"
        package let capabilities = Capabilities()

        package struct Capabilities: Encodable, Sendable {
            package let alwaysMatch = AlwaysMatch()
        }

        package struct AlwaysMatch: Encodable, Sendable {
            package let unhandledPromptBehavior = ["default": "ignore"]
        }

        package init() {}
    }

    /// `script.addPreloadScript` (WebDriver BiDi, "The script.addPreloadScript Command"): without
    /// `contexts`, the function runs in every new window realm of every browsing context,
    /// top-level and nested, before the document's scripts.
    /// With a channel (``ChannelValue``), the function takes it as its one argument, `channel`.
    package struct AddPreloadScript: Encodable, Sendable {
        package static let method = "script.addPreloadScript"
        package let functionDeclaration: String
        package let arguments: [ChannelValue]?

        /// Wraps a classic script as the function declaration BiDi calls.
        ///
        /// - Parameters:
        ///   - script: the script's statements.
        ///   - channel: a channel the statements call as `channel(value)`, if any.
        package init(script: String, channel: ChannelValue? = nil) {
            functionDeclaration = (channel == nil ? "() => {\n" : "(channel) => {\n") + script + "\n}"
            arguments = channel.map { [$0] }
        }
    }

    /// `browsingContext.getTree` (WebDriver BiDi, "The browsingContext.getTree Command"): top-level
    /// contexts only, or the one context `root` (whose `parent` the answer then gives).
    package struct GetTree: Encodable, Sendable {
        package static let method = "browsingContext.getTree"
        package let maxDepth = 0
        package let root: String?

        package init(root: String? = nil) {
            self.root = root
        }
    }

    /// The result of ``GetTree``: the top-level browsing contexts.
    package struct Tree: Decodable, Sendable {
        package let contexts: [Info]

        package struct Info: Decodable, Sendable {
            package let context: String
            /// The parent context; `nil` for a top-level one.
            package let parent: String?
        }
    }

    /// `browsingContext.navigate` (WebDriver BiDi, "The browsingContext.navigate Command"),
    /// answered at once (`wait: none`).
    package struct Navigate: Encodable, Sendable {
        package static let method = "browsingContext.navigate"
        package let context: String
        package let url: String
        package let wait = "none"

        package init(context: String, url: String) {
            self.context = context
            self.url = url
        }
    }

    /// A result whose members are not read.
    package struct Ignored: Decodable, Sendable {}
}
