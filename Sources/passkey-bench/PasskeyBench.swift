import ArgumentParser

/// `passkey-bench`: SoftPasskey's benchmarks, each figure beside the baseline it is judged against,
/// measured in the same run. Not a product: nothing of it ships in `passkey`, and nothing in the
/// libraries exists only for it (DESIGN.md).
///
/// Why one type over ~800 lines: `PasskeyBench` is a namespace of ArgumentParser subcommands,
/// each nested in it and in a file of its own (`PasskeyBench+Tenant.swift`, STYLE §6). They share
/// no stored state and no method; what they share is in `Bench/` and `Support/`, as types of
/// their own. `PasskeyBench` itself is only the command table below.
@main
struct PasskeyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passkey-bench",
        abstract:
            "Measure the authenticator (the default), every figure with a target, the local tenant, signup and login end to end, seeding, passkey serve, the CTAP device, the page bridge, or growth with size.",
        discussion: "Build with -c release for real figures (make bench).",
        subcommands: [
            AuthenticatorBench.self, TargetsBench.self, TenantBench.self, EndToEndBench.self, SeedBench.self,
            ServeBench.self, CTAPBench.self, BridgeCommand.self, ConformanceBench.self, GrowthBench.self,
            MemoryBench.self,
        ],
        defaultSubcommand: AuthenticatorBench.self)
}
