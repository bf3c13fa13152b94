import Foundation
public import Testing

/// A fresh directory of one test under the system's temporary directory (STYLE §7: tests run in
/// parallel, each in a directory of its own); ``remove()`` it in a `defer`.
public struct TemporaryDirectory: Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates a new, empty directory named `prefix-XXXXXX`, readable by this user only.
    ///
    /// - Parameter prefix: the start of the directory's name, to tell leftovers apart.
    /// - Throws: `EIO` when the directory cannot be made.
    public init(prefix: String = "passkey-test") throws {
        let temporary = FileManager.default.temporaryDirectory.path
        var template = Array((temporary + "/" + prefix + "-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw POSIXError(.EIO)
        }
        path = String(cString: made)
    }

    /// A path inside the directory.
    ///
    /// - Parameter name: a name, or a relative path.
    /// - Returns: `path/name`.
    public func appending(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes a file in the directory.
    ///
    /// - Parameters:
    ///   - name: the file's name.
    ///   - text: its contents, as UTF-8.
    /// - Returns: the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let file = appending(name)
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension TemporaryDirectory {
    /// The directory the ``TemporaryDirectoryTrait`` made for the running test case.
    @TaskLocal static var scoped: TemporaryDirectory?

    /// The directory of the running test case, made by the `.temporaryDirectory` trait on the
    /// test or its suite and removed after it, whatever the outcome.
    ///
    /// ```swift
    /// @Test(.temporaryDirectory) func reopens() async throws {
    ///     let path = try TemporaryDirectory.current.appending("store")
    ///     let store = try await FileCredentialStore(directory: path)
    /// ```
    ///
    /// - Throws: when the test has no `.temporaryDirectory` trait.
    public static var current: TemporaryDirectory {
        get throws {
            guard let scoped else {
                throw MissingTemporaryDirectory()
            }
            return scoped
        }
    }

    /// Why ``current`` has no directory.
    struct MissingTemporaryDirectory: Error, CustomStringConvertible {
        var description: String {
            "TemporaryDirectory.current needs the .temporaryDirectory trait on the test or suite"
        }
    }
}

/// Gives every test case a fresh ``TemporaryDirectory`` of its own, as ``TemporaryDirectory/current``,
/// and removes it afterwards: the fixture of the tests that keep a store or files (STYLE §7).
/// On a suite it applies to each test in it.
public struct TemporaryDirectoryTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Scopes test cases only, not the suite around them.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await TemporaryDirectory.$scoped.withValue(directory) {
            try await function()
        }
    }
}

extension Trait where Self == TemporaryDirectoryTrait {
    /// A fresh temporary directory for each test case, as ``TemporaryDirectory/current``.
    public static var temporaryDirectory: Self { TemporaryDirectoryTrait() }
}
