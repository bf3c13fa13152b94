import CBuildInfo

/// The version this binary is and the commit it was built from (`Package.swift` reads them from
/// `VERSION` and git; the wheel and the tarball of a release carry the same version).
///
/// SwiftPM reads the commit when it plans a build, which `make dist` forces; an incremental
/// `swift build` may keep the commit of its last plan.
enum BuildInfo {
    static let version = String(cString: softpasskey_version())
    static let commit = String(cString: softpasskey_commit())

    /// What `passkey --version` prints: `0.1.0 (commit 0123…)`.
    static var line: String { "\(version) (commit \(commit))" }
}
