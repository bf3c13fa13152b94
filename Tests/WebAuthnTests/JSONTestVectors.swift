import Foundation
import WebAuthn

/// Finds and reads the package's `Vectors/` files for the JSON tests.
enum JSONTestVectors {
    /// The `Vectors/<family>` folder: walks up from this file to the one that holds `Package.swift`.
    static func folder(_ family: String, filePath: String = #filePath) throws -> URL {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            let parent = directory.deletingLastPathComponent()
            guard parent != directory else { throw CocoaError(.fileNoSuchFile) }
            directory = parent
        }
        return directory.appendingPathComponent("Vectors").appendingPathComponent(family)
    }

    /// The names of the `.json` files of a family, sorted, for `@Test(arguments:)`.
    static func names(_ family: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder(family).path)
            .filter { $0.hasSuffix(".json") }
            .sorted()
    }

    /// The bytes of one vector file.
    static func bytes(_ family: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder(family).appendingPathComponent(name)))
    }

    /// Encodes and parses back to a `JSONValue`, to compare JSON texts regardless of key order.
    static func jsonValue(_ value: some Encodable) throws -> JSONValue {
        try WebAuthnJSON.decode(JSONValue.self, from: WebAuthnJSON.encode(value))
    }
}
