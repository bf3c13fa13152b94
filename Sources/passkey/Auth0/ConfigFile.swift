import Foundation

/// The config file `passkey config set` writes: a JSON object of ``TenantSetting`` names to
/// strings, at `$PASSKEY_CONFIG`, else `$XDG_CONFIG_HOME/passkey/config.json`, else
/// `~/.config/passkey/config.json` (XDG Base Directory Specification), mode 0600.
struct ConfigFile {
    let path: String
    private(set) var values: [String: String]

    /// The file's path for this environment.
    static func path(environment: [String: String]) -> String {
        if let path = environment["PASSKEY_CONFIG"], !path.isEmpty { return path }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return config + "/passkey/config.json"
        }
        return (environment["HOME"] ?? ".") + "/.config/passkey/config.json"
    }

    /// Reads the file; a missing file is an empty configuration.
    ///
    /// - Throws: ``FlowFailure`` when the file exists but is not a JSON object of strings.
    init(path: String) throws(FlowFailure) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            values = [:]
            return
        }
        guard let values = try? JSONDecoder().decode([String: String].self, from: data) else {
            throw FlowFailure(
                step: "config", code: "bad-config-file", description: "\(path) is not a JSON object of strings",
                hint: "fix or delete it, then use `passkey config set`")
        }
        self.values = values
    }

    subscript(setting: TenantSetting) -> String? {
        get { values[setting.rawValue] }
        set { values[setting.rawValue] = newValue }
    }

    /// Writes the file atomically (a temporary file renamed over it), mode 0600, creating its
    /// directory (0700) when missing.
    func save() throws(FlowFailure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(
                atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            let temporary = path + ".tmp-\(getpid())"
            guard
                FileManager.default.createFile(
                    atPath: temporary, contents: try encoder.encode(values) + Data("\n".utf8),
                    attributes: [.posixPermissions: 0o600])
            else { throw CocoaError(.fileWriteUnknown) }
            guard rename(temporary, path) == 0 else {
                unlink(temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw FlowFailure(
                step: "config", code: "cannot-write-config", description: "cannot write \(path)",
                hint: "check the directory's permissions, or set PASSKEY_CONFIG to another file")
        }
    }
}
