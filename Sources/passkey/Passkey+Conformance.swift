import ArgumentParser

extension Passkey {
    /// `passkey conformance`: the FIDO2 server conformance suite and the metadata service it needs
    /// (a minimal group; the integrator's file, with `run` and `list`, replaces it).
    struct Conformance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a relying-party server against the FIDO2 server conformance suite.",
            subcommands: [MDS.self])
    }
}
