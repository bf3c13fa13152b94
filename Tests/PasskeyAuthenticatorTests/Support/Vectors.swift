import Foundation
import WebAuthn

/// The project's `Vectors/` folder, found by walking up from this file to the package root (a
/// small copy of `WebAuthnTests`' support, which another test target cannot import).
enum Vectors {
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("Vectors")
    }()

    /// Decodes one vector file named by its path below `Vectors/` (`w3c/prf-hmac-secret.json`).
    static func load<T: Decodable>(_ type: T.Type, _ path: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: root.appendingPathComponent(path)))
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
