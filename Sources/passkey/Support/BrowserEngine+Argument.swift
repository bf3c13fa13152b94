public import ArgumentParser
public import PasskeyBrowser

/// `--engine chromium|firefox`.
extension BrowserEngine: ExpressibleByArgument {}
