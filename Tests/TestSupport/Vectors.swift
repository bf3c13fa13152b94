public import FoundationEssentials
public import WebAuthn

/// The project's `Vectors/` folder, found by walking up from this file to the package root
/// (STYLE §7), and its files decoded.
public enum Vectors {
    /// The `Vectors/` folder beside `Package.swift`.
    public static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Vectors")
    }()

    /// The names of the `.json` files in a family folder (`w3c`, `realworld`, `cose`), sorted.
    ///
    /// - Parameters:
    ///   - family: the folder below `Vectors/`.
    ///   - excluded: names to leave out.
    /// - Returns: the file names, without their folder.
    /// - Throws: when the folder cannot be listed.
    public static func names(_ family: String, excluding excluded: Set<String> = []) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(family).path)
            .filter { $0.hasSuffix(".json") && !excluded.contains($0) }
            .sorted()
    }

    /// The bytes of one vector file.
    ///
    /// - Parameters:
    ///   - family: the folder below `Vectors/`.
    ///   - name: the file's name in it.
    /// - Returns: the file's bytes.
    /// - Throws: when the file cannot be read.
    public static func bytes(_ family: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(family).appendingPathComponent(name)))
    }

    /// Decodes one vector file.
    ///
    /// - Parameters:
    ///   - type: the type the file decodes to.
    ///   - family: the folder below `Vectors/`.
    ///   - name: the file's name in it.
    /// - Returns: the decoded file.
    /// - Throws: when the file cannot be read or decoded.
    public static func load<T: Decodable>(_ type: T.Type, _ family: String, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(bytes(family, name)))
    }

    /// Decodes one vector file named by its path below `Vectors/` (`w3c/none-es256.json`).
    ///
    /// - Parameters:
    ///   - type: the type the file decodes to.
    ///   - path: the file's path below `Vectors/`.
    /// - Returns: the decoded file.
    /// - Throws: when the file cannot be read or decoded.
    public static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// Encodes and parses back to a `JSONValue`, to compare JSON texts regardless of key order.
    ///
    /// - Parameter value: what to encode.
    /// - Returns: the JSON tree of its encoding.
    /// - Throws: when `value` does not encode.
    public static func jsonValue(_ value: some Encodable) throws -> JSONValue {
        try WebAuthnJSON.decode(JSONValue.self, from: WebAuthnJSON.encode(value))
    }
}
