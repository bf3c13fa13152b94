import Foundation
import PasskeyBrowser
import TestSupport
import Testing
import WebAuthn

/// The sites a person decided for, kept in a store's directory: remembered, replaced, forgotten,
/// written whole with mode 0600, and a damaged file is an error, never an empty list.
@Suite(.temporaryDirectory) struct SiteDecisionsTests {
    static let shop = try! WebOrigin("https://shop.example")
    static let news = try! WebOrigin("http://localhost:8080")

    @Test func decisionsAreRememberedReplacedAndForgotten() async throws {
        let directory = try TemporaryDirectory.current.path
        let decisions = SiteDecisions(directory: directory)
        #expect(try await decisions.decisions().isEmpty)
        #expect(try await decisions.decision(for: Self.shop) == nil)

        let then = Date(timeIntervalSince1970: 1_800_000_000)
        try await decisions.record(true, for: Self.shop, at: then)
        try await decisions.record(false, for: Self.news, at: then)
        try await decisions.record(false, for: Self.shop, at: then)
        // Another instance reads what this one wrote: the file is the truth.
        let again = SiteDecisions(directory: directory)
        #expect(
            try await again.decisions() == [
                SiteDecisions.Decision(origin: Self.news, allowed: false, decided: then),
                SiteDecisions.Decision(origin: Self.shop, allowed: false, decided: then),
            ])
        let path = directory + "/" + SiteDecisions.fileName
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == #"{"sites":[{"allowed":false,"decided":"2027-01-15T08:00:00Z","origin":"http://localhost:8080"},"#
                + #"{"allowed":false,"decided":"2027-01-15T08:00:00Z","origin":"https://shop.example"}],"version":1}"#
                + "\n")

        #expect(try await again.forget(Self.shop))
        #expect(try await again.forget(Self.shop) == false)
        #expect(try await decisions.decision(for: Self.shop) == nil)
        #expect(try await decisions.decision(for: Self.news) == false)
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [SiteDecisions.fileName])
    }

    @Test(arguments: [
        ("not JSON", "allowed: https://shop.example", "is not a list of site decisions"),
        ("truncated", #"{"version":1,"sites":[{"origin":"https://shop.example","allowed":tr"#, "is not a list"),
        ("another version", #"{"version":2,"sites":[]}"#, "has version 2, not 1"),
        (
            "not an origin",
            #"{"version":1,"sites":[{"origin":"https://shop.example/login","allowed":true,"#
                + #""decided":"2027-01-15T08:00:00Z"}]}"#, "which is not an origin"
        ),
        (
            "an origin twice",
            #"{"version":1,"sites":[{"origin":"https://a.example","allowed":false,"#
                + #""decided":"2027-01-15T08:00:00Z"},{"origin":"https://a.example","allowed":true,"#
                + #""decided":"2027-01-15T08:00:00Z"}]}"#, "twice"
        ),
    ])
    func aDamagedFileIsAnErrorAndStaysAsItWas(_ name: String, _ text: String, _ reason: String) async throws {
        let directory = try TemporaryDirectory.current.path
        let path = try TemporaryDirectory.current.write(SiteDecisions.fileName, text)
        let decisions = SiteDecisions(directory: directory)
        for attempt in 0..<3 {
            let error = await #expect(throws: BrowserError.self) {
                switch attempt {
                case 0: _ = try await decisions.decision(for: Self.shop)
                case 1: try await decisions.record(true, for: Self.shop)
                default: _ = try await decisions.forget(Self.shop)
                }
            }
            #expect(error?.code == .sitesUnreadable, "\(name)")
            #expect(error?.reason.contains(reason) == true, "\(name): \(error?.reason ?? "")")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }
}
