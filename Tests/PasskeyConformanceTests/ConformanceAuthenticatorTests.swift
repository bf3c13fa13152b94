import PasskeyConformance
import Testing
import WebAuthn

/// The runner's authenticator models are told apart by AAGUID, and metadata lists all but one.
@Suite struct ConformanceAuthenticatorTests {
    @Test func eachModelHasItsOwnAAGUID() {
        let aaguids = ConformanceAuthenticator.allCases.map(\.aaguid)
        #expect(Set(aaguids).count == aaguids.count)
        #expect(ConformanceAuthenticator.certified.aaguid.description == "53504b43-0000-4000-8000-000000000001")
    }

    @Test func onlyTheUnlistedModelHasNoStatus() {
        #expect(ConformanceAuthenticator.allCases.filter { $0.status == nil } == [.unlisted])
        #expect(ConformanceAuthenticator.allCases.compactMap(\.status).filter(\.isCompromised).count == 3)
    }
}
