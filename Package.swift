// swift-tools-version:6.2
import Foundation
import PackageDescription

/// Every Swift target opts into the same upcoming features, so each `public import` is a visible
/// decision and each existential is spelled `any`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// SoftPasskey's version, the one line of `VERSION` (the wheel's and the tarball's too), and the
/// commit built from (with `-dirty` when the work tree differs from it): what `passkey --version`
/// prints, through `CBuildInfo`.
let version =
    (try? String(contentsOfFile: Context.packageDirectory + "/VERSION", encoding: .utf8))?
    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
let commit = Context.gitInformation.map { $0.currentCommit + ($0.hasUncommittedChanges ? "-dirty" : "") } ?? "unknown"

let package = Package(
    name: "SoftPasskey",
    products: [
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "PasskeyAuthenticator", targets: ["PasskeyAuthenticator"]),
        .library(name: "Auth0Passkeys", targets: ["Auth0Passkeys"]),
        .library(name: "PasskeyTenant", targets: ["PasskeyTenant"]),
        .library(name: "PasskeyKit", targets: ["PasskeyKit"]),
        .library(name: "PasskeyControl", targets: ["PasskeyControl"]),
        .library(name: "PasskeyPKCS11", targets: ["PasskeyPKCS11"]),
        .library(name: "PasskeyBrowser", targets: ["PasskeyBrowser"]),
        .library(name: "PasskeyCTAP", targets: ["PasskeyCTAP"]),
        .library(name: "PasskeyConformance", targets: ["PasskeyConformance"]),
        .executable(name: "passkey", targets: ["passkey"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CCBOR",
            pkgConfig: "libcbor",
            providers: [.apt(["libcbor-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CPSL",
            pkgConfig: "libpsl",
            providers: [.apt(["libpsl-dev", "publicsuffix"])]
        ),
        /// The PKCS#11 interface (p11-kit's header); modules are opened with dlopen.
        .systemLibrary(
            name: "CPKCS11",
            pkgConfig: "p11-kit-1",
            providers: [.apt(["libp11-kit-dev"])]
        ),
        /// zlib's raw DEFLATE (RFC 1951), which CTAP large blobs are compressed with.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        /// fstatfs(2), for the filesystem type (Glibc's module lacks sys/statfs.h).
        .systemLibrary(name: "CStatfs"),
        /// Blocking system work kept off the concurrency pool: the durable file commit and the
        /// executor on a thread of its own (not a product; `package` API only).
        .target(
            name: "BlockingIO",
            dependencies: ["CStatfs", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WebAuthn",
            dependencies: [
                "CCBOR", "CCrypto", "CPSL", .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PasskeyAuthenticator",
            dependencies: [
                "WebAuthn", "BlockingIO", "CZlib", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Passkeys whose private keys live in a PKCS#11 token (an HSM, a TPM, a smart card, SoftHSM2);
        /// public API of the core only.
        .target(
            name: "PasskeyPKCS11",
            dependencies: ["CPKCS11", "PasskeyAuthenticator", "WebAuthn"],
            packageAccess: false,
            swiftSettings: swiftSettings
        ),
        /// The authenticator as a FIDO device: CTAP 2.1 commands over any `Authenticator`, and
        /// CTAPHID framing (CTAP 2.1 §8, §11.2).
        .target(
            name: "PasskeyCTAP",
            dependencies: ["PasskeyAuthenticator", "WebAuthn", "BlockingIO"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Auth0Passkeys",
            dependencies: [
                "WebAuthn", "BlockingIO", "CCurl", "CBuildInfo", .product(name: "Logging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings
        ),
        /// The request-body decoder the tenant and the control server share (not a product;
        /// `package` API but for the decoder type their request contexts name).
        /// The FIDO2 server conformance suite (`passkey conformance`): forged ceremonies under a test
        /// PKI of its own, driven through the FIDO transport binding or in process, and a local FIDO
        /// metadata service.
        .target(
            name: "PasskeyConformance",
            dependencies: [
                "WebAuthn", "PasskeyAuthenticator", "Auth0Passkeys", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "JSONBodies",
            dependencies: ["WebAuthn", .product(name: "Hummingbird", package: "hummingbird")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PasskeyTenant",
            dependencies: [
                "WebAuthn", "JSONBodies", "Auth0Passkeys", "BlockingIO",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The login page's script and stylesheet, compiled into the binary.
            resources: [.embedInCode("WebAuth/Page/passkey.js"), .embedInCode("WebAuth/Page/passkey.css")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "PasskeyKit",
            dependencies: [
                "Auth0Passkeys", "PasskeyAuthenticator", "WebAuthn", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        /// The control API (W3C WebDriver virtual authenticators, ceremonies, virtual users,
        /// metrics) as a service, over HTTP and over MCP: what `passkey serve` and `passkey mcp` expose.
        .target(
            name: "PasskeyControl",
            dependencies: [
                "PasskeyKit", "PasskeyAuthenticator", "Auth0Passkeys", "WebAuthn", "JSONBodies",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The page bridge's script, compiled into the binary (no resource bundle to find at run time).
            resources: [.embedInCode("Bridge/bridge.js")],
            swiftSettings: swiftSettings
        ),
        /// A browser engine (Chromium, Firefox) opened with a script installed in every frame before
        /// the page's own scripts: what `passkey browser` runs the page bridge in.
        .target(
            name: "PasskeyBrowser",
            dependencies: [
                "WebAuthn", "BlockingIO", "Auth0Passkeys", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The relay's scripts (Chromium extension, BiDi preload), compiled into the binary.
            resources: [
                .embedInCode("Relay/relay-page.js"), .embedInCode("Relay/relay-main.js"),
                .embedInCode("Relay/relay-content.js"), .embedInCode("Relay/relay-worker.js"),
                .embedInCode("Relay/relay-bidi.js"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Test support only (not a product): one process hammering a store, for the
        /// cross-process tests of `PasskeyAuthenticatorTests`.
        .executableTarget(
            name: "store-stress",
            dependencies: ["PasskeyAuthenticator", "WebAuthn"],
            swiftSettings: swiftSettings
        ),
        /// The version and commit above, as C strings (a Swift target cannot be given a value to compile in).
        .target(
            name: "CBuildInfo",
            cSettings: [
                .define("SOFTPASSKEY_VERSION", to: "\"\(version)\""),
                .define("SOFTPASSKEY_COMMIT", to: "\"\(commit)\""),
            ]
        ),
        .executableTarget(
            name: "passkey",
            dependencies: [
                "WebAuthn", "PasskeyAuthenticator", "Auth0Passkeys", "PasskeyTenant", "PasskeyKit", "PasskeyControl",
                "PasskeyPKCS11", "PasskeyBrowser", "PasskeyCTAP", "PasskeyConformance", "BlockingIO", "CBuildInfo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        /// The benchmarks, each figure beside its baseline measured in the same run (not a product:
        /// `make bench`). Raw baselines call BlockingIO and the C targets themselves.
        .executableTarget(
            name: "passkey-bench",
            dependencies: [
                "WebAuthn", "PasskeyAuthenticator", "Auth0Passkeys", "PasskeyTenant", "PasskeyKit", "PasskeyControl",
                "PasskeyPKCS11", "PasskeyCTAP", "PasskeyConformance", "BlockingIO", "CPKCS11", "CCrypto",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Test support only (not a product): vectors, temporary directories, child processes and
        /// the local tenant, shared by every test target.
        .target(
            name: "TestSupport",
            dependencies: [
                "WebAuthn", "PasskeyTenant", "PasskeyConformance",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: [
                "WebAuthn", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyConformanceTests",
            dependencies: [
                "PasskeyConformance", "PasskeyAuthenticator", "PasskeyTenant", "Auth0Passkeys", "WebAuthn",
                "TestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyCTAPTests",
            dependencies: ["PasskeyCTAP", "PasskeyAuthenticator", "WebAuthn", "BlockingIO", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyPKCS11Tests",
            dependencies: ["PasskeyPKCS11", "PasskeyAuthenticator", "WebAuthn", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyAuthenticatorTests",
            dependencies: [
                "PasskeyAuthenticator", "PasskeyPKCS11", "WebAuthn", "BlockingIO", "TestSupport", "store-stress",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "X509", package: "swift-certificates"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "Auth0PasskeysTests",
            dependencies: [
                "Auth0Passkeys", "WebAuthn", "PasskeyAuthenticator", "PasskeyTenant", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        /// Public API only (`packageAccess: false`): the extension points, implemented as a user
        /// outside the package would.
        .testTarget(
            name: "ExtensionPointTests",
            dependencies: [
                "Auth0Passkeys", "PasskeyAuthenticator", "WebAuthn", "PasskeyTenant", "PasskeyKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            packageAccess: false,
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyTenantTests",
            dependencies: [
                "PasskeyTenant", "WebAuthn", "PasskeyAuthenticator", "TestSupport", "Auth0Passkeys", "PasskeyKit",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyKitTests",
            dependencies: [
                "PasskeyKit", "PasskeyTenant", "PasskeyAuthenticator", "Auth0Passkeys", "WebAuthn", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyControlTests",
            dependencies: [
                "PasskeyControl", "PasskeyTenant", "PasskeyAuthenticator", "PasskeyPKCS11", "Auth0Passkeys", "WebAuthn",
                "TestSupport", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyBrowserTests",
            dependencies: [
                "PasskeyBrowser", "WebAuthn", "TestSupport", "Auth0Passkeys",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        /// The samples of README.md and the DocC articles, compiled.
        .testTarget(
            name: "SnippetTests",
            dependencies: [
                "PasskeyKit", "PasskeyTenant", "PasskeyAuthenticator", "Auth0Passkeys", "WebAuthn", "PasskeyControl",
                "PasskeyBrowser",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PasskeyCLITests",
            dependencies: [
                "passkey", "passkey-bench", "WebAuthn", "PasskeyAuthenticator", "Auth0Passkeys", "TestSupport",
                "PasskeyTenant", "PasskeyBrowser", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
