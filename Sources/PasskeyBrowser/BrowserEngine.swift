import Glibc

/// A browser engine a page can be opened in with a script installed before its own, and the
/// Debian package that installs it.
///
/// Each engine has its own way of running a script in every frame before the page's scripts:
/// Chromium an unpacked Manifest V3 extension whose content script runs in the page's `MAIN`
/// world at `document_start` in all frames; Firefox a WebDriver BiDi preload script
/// (W3C WebDriver BiDi `script.addPreloadScript`) over its remote agent.
public enum BrowserEngine: String, Sendable, Hashable, CaseIterable {
    /// Chromium, from Debian's `chromium` package.
    case chromium
    /// Firefox ESR, from Debian's `firefox-esr` package.
    case firefox

    /// The names of its executable, searched in this order along `PATH`.
    public var executableNames: [String] {
        switch self {
        case .chromium: ["chromium"]
        case .firefox: ["firefox-esr", "firefox"]
        }
    }

    /// The Debian package that installs it.
    public var debianPackage: String {
        switch self {
        case .chromium: "chromium"
        case .firefox: "firefox-esr"
        }
    }

    /// Finds the engine's executable along `PATH`.
    ///
    /// - Parameter environment: the environment whose `PATH` is searched.
    /// - Returns: the executable's path.
    /// - Throws: ``BrowserError`` `engine-missing`, naming the Debian package to install.
    public func locate(environment: [String: String]) throws(BrowserError) -> String {
        let directories = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for name in executableNames {
            for directory in directories where !directory.isEmpty {
                let path = directory + "/" + name
                if access(path, X_OK) == 0 {
                    return path
                }
            }
        }
        throw BrowserError(
            .engineMissing,
            "\(executableNames[0]) is not installed: install the Debian package \(debianPackage) "
                + "(apt-get install \(debianPackage))")
    }
}
