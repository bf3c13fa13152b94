public import MCP

/// A tool an embedding process serves beside the control service's (``ControlMCPServer``): its
/// MCP description and what it does.
///
/// The tool answers JSON bytes; what it throws becomes a tool error, as the service's refusals do.
/// `passkey mcp` adds its `inspect` and `verify_*` tools so.
public struct ControlMCPTool: Sendable {
    /// The tool's name, description and argument schema (MCP 2025-06-18 "Tools").
    public let tool: Tool
    /// What a call does with the arguments: the answer's JSON bytes.
    public let run: @Sendable (ControlMCPArguments) async throws -> [UInt8]

    /// A tool whose arguments are an object of the given properties.
    ///
    /// - Parameters:
    ///   - name: the tool's name.
    ///   - description: what it does, for the agent.
    ///   - properties: its arguments' JSON Schemas, by name (``string(_:)``, ``object(_:)``, …).
    ///   - required: the arguments it cannot do without.
    ///   - readOnly: whether it changes nothing (MCP's `readOnlyHint`).
    ///   - run: what a call does.
    public init(
        _ name: String, _ description: String, _ properties: [String: Value], required: [String],
        readOnly: Bool = false, run: @escaping @Sendable (ControlMCPArguments) async throws -> [UInt8]
    ) {
        tool = Self.describing(name, description, properties, required: required, readOnly: readOnly)
        self.run = run
    }

    /// The MCP description of a tool whose arguments are an object of `properties`.
    static func describing(
        _ name: String, _ description: String, _ properties: [String: Value], required: [String], readOnly: Bool
    ) -> Tool {
        Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(properties), "required": .array(required.map { .string($0) }),
            ]),
            annotations: .init(readOnlyHint: readOnly))
    }

    /// The schema of a string argument.
    public static func string(_ description: String) -> Value {
        ["type": "string", "description": .string(description)]
    }

    /// The schema of an integer argument.
    public static func integer(_ description: String) -> Value {
        ["type": "integer", "description": .string(description)]
    }

    /// The schema of a boolean argument.
    public static func boolean(_ description: String) -> Value {
        ["type": "boolean", "description": .string(description)]
    }

    /// The schema of a JSON argument: an object, or a string holding its JSON
    /// (``ControlMCPArguments/decode(_:_:)`` reads both).
    public static func object(_ description: String) -> Value {
        ["type": ["object", "string"], "description": .string(description)]
    }
}
