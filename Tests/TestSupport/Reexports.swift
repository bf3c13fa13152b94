/// Tests that forge ceremonies use the conformance suite's ``HandmadeCeremony``.
@_exported public import PasskeyConformance
