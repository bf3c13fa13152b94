import ArgumentParser
import Testing

@testable import passkey

@Suite struct PasskeyCLITests {
    @Test func parsesRoot() throws {
        #expect(throws: Never.self) { _ = try Passkey.parseAsRoot([]) }
    }
}
