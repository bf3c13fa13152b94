import Foundation
import WebAuthn

/// The project's `Vectors/` folder, found by walking up from this file to the package root.
enum Vectors {
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Vectors")
    }()

    /// The names of the `.json` files in a family folder (`w3c`, `realworld`, `cose`), sorted.
    static func names(_ family: String, excluding excluded: Set<String> = []) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(family).path)
            .filter { $0.hasSuffix(".json") && !excluded.contains($0) }
            .sorted()
    }

    /// The bytes of one vector file.
    static func bytes(_ family: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(family).appendingPathComponent(name)))
    }

    /// Decodes one vector file.
    static func load<T: Decodable>(_ type: T.Type, _ family: String, _ name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(bytes(family, name)))
    }

    /// Decodes one vector file named by its path below `Vectors/` (`w3c/none-es256.json`).
    static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// Encodes and parses back to a `JSONValue`, to compare JSON texts regardless of key order.
    static func jsonValue(_ value: some Encodable) throws -> JSONValue {
        try WebAuthnJSON.decode(JSONValue.self, from: WebAuthnJSON.encode(value))
    }
}

/// Hex text in a vector file, decoded.
struct HexBytes: Decodable, Hashable, CustomStringConvertible {
    let bytes: [UInt8]

    init(from decoder: any Decoder) throws {
        bytes = try Hex.decode(decoder.singleValueContainer().decode(String.self))
    }

    var description: String { Hex.encode(bytes) }
}

/// Base64url text in a vector file, decoded (padded or not, as captures have it).
struct B64Bytes: Decodable, Hashable {
    let bytes: [UInt8]

    init(from decoder: any Decoder) throws {
        bytes = try Base64URL.decode(decoder.singleValueContainer().decode(String.self))
    }
}

/// A string or a list of strings (`expected_origin` is either).
struct OneOrMany: Decodable {
    let values: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }
}
