// swift-tools-version: 6.0
// libFuzzer harness for the WebAuthn module and the CTAP device: one binary, one target per FUZZ_TARGET.
// Build with `make fuzz` (release, -sanitize=fuzzer,address); see "Fuzzing" in the README.
import PackageDescription

let package = Package(
    name: "SoftPasskeyFuzz",
    dependencies: [.package(name: "SoftPasskey", path: "..")],
    targets: [
        .executableTarget(
            name: "webauthn-fuzz",
            dependencies: [
                .product(name: "WebAuthn", package: "SoftPasskey"),
                .product(name: "PasskeyAuthenticator", package: "SoftPasskey"),
                .product(name: "PasskeyCTAP", package: "SoftPasskey"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ]
)
