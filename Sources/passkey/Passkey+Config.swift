import ArgumentParser
import Foundation

extension TenantSetting: ExpressibleByArgument {}

extension Passkey {
    /// `passkey config`: the tenant settings the Auth0 commands read last (after flags and `AUTH0_*`).
    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read and write the config file of the Auth0 commands.",
            discussion: """
                Settings: \(TenantSetting.allCases.map { "\($0.rawValue) (\($0.environmentVariable)): \($0.meaning)" }.joined(separator: "; ")). \
                A flag wins over the environment, which wins over this file ($PASSKEY_CONFIG, else \
                $XDG_CONFIG_HOME/passkey/config.json, else ~/.config/passkey/config.json).
                """,
            subcommands: [Set.self, Get.self, Unset.self, List.self])

        /// Runs `body` on the config file; a failure is one line and exit 1.
        static func editing(_ body: (inout ConfigFile) throws(FlowFailure) -> Void) throws {
            do {
                var file = try ConfigFile(path: ConfigFile.path(environment: ProcessInfo.processInfo.environment))
                try body(&file)
            } catch {
                printError(error.line)
                throw ExitCode(1)
            }
        }

        /// Writes `value` for `setting` (removes it, for `nil`) and saves the file: `config set` and
        /// `config unset`.
        static func saving(_ setting: TenantSetting, _ value: String?) throws {
            try editing { (file) throws(FlowFailure) in
                file[setting] = value
                try file.save()
            }
        }
    }
}

extension Passkey.Config {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set a setting.")

        @Argument(help: "The setting: \(TenantSetting.allCases.map(\.rawValue).joined(separator: ", ")).")
        var setting: TenantSetting

        @Argument(help: "Its value.")
        var value: String

        func run() throws {
            try Passkey.Config.saving(setting, value)
        }
    }

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a setting from the file (exit 1 if unset).")

        @Argument(help: "The setting.")
        var setting: TenantSetting

        @OptionGroup var format: OutputOptions

        func run() throws {
            var found: String?
            try Passkey.Config.editing { file in found = file[setting] }
            guard let found else { throw ExitCode(1) }
            printOutput(Value(setting: setting.rawValue, value: found), json: format.json)
        }

        /// What `config get` prints.
        struct Value: CommandOutput {
            let setting: String
            let value: String

            var text: String { value }
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a setting.")

        @Argument(help: "The setting.")
        var setting: TenantSetting

        func run() throws {
            try Passkey.Config.saving(setting, nil)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the file's path and every setting, with the environment variables that override them.")

        @OptionGroup var format: OutputOptions

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            var listing: Listing?
            try Passkey.Config.editing { file in
                listing = Listing(
                    path: file.path,
                    settings: TenantSetting.allCases.map { setting in
                        Listing.Setting(
                            setting: setting.rawValue, value: file[setting],
                            environmentVariable: setting.environmentVariable,
                            overridden: environment[setting.environmentVariable] != nil)
                    })
            }
            listing.map { printOutput($0, json: format.json) }
        }

        /// What `config list` prints: the file's settings, with the environment variables that
        /// override them (snake_case keys, as the other Auth0 commands print).
        struct Listing: CommandOutput {
            struct Setting: Encodable {
                let setting: String
                let value: String?
                let environmentVariable: String
                let overridden: Bool

                enum CodingKeys: String, CodingKey {
                    case setting, value, overridden
                    case environmentVariable = "environment_variable"
                }
            }

            let path: String
            let settings: [Setting]

            var text: String {
                (["# \(path)"]
                    + settings.map { setting in
                        "\(setting.setting) = \(setting.value ?? "")"
                            + (setting.overridden ? "  (overridden by \(setting.environmentVariable))" : "")
                    })
                    .joined(separator: "\n")
            }
        }
    }
}
