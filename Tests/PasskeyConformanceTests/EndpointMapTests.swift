import PasskeyConformance
import Testing
import WebAuthn

/// An endpoint map reads as documented, names what is wrong in one that does not, and fills its
/// templates with the ceremony's values.
@Suite struct EndpointMapTests {
    @Test func anEmptyMapIsTheBinding() throws {
        let map = try EndpointMap(json: Array("{}".utf8))
        #expect(map == .binding)
        #expect(map[.attestationResult].path == "/attestation/result")
        #expect(map[.assertionOptions].statusMember == "status")
    }

    @Test func aCallKeepsWhatTheMapLeavesOut() throws {
        let map = try EndpointMap(
            json: Array(#"{"attestationOptions": {"path": "/register", "options": "publicKey"}}"#.utf8))
        #expect(map[.attestationOptions].path == "/register")
        #expect(map[.attestationOptions].options == "publicKey")
        #expect(map[.attestationOptions].statusMember == "status")
        #expect(map[.assertionResult] == EndpointMap.binding[.assertionResult])
    }

    @Test(arguments: [
        ("[]", "not a JSON object"),
        ("{", "not JSON"),
        (#"{"login": {}}"#, "login: not a call"),
        (#"{"assertionResult": {"path": "relative"}}"#, "assertionResult.path"),
        (#"{"assertionResult": {"headers": {"X": 1}}}"#, "assertionResult.headers.X: not a string"),
        (#"{"assertionResult": {"verb": "GET"}}"#, "assertionResult.verb"),
    ])
    func aBadMapSaysWhatIsWrong(text: String, reason: String) {
        #expect {
            try EndpointMap(json: Array(text.utf8))
        } throws: { error in
            let error = try #require(error as? ConformanceError)
            return error.code == .badMap && error.reason.contains(reason)
        }
    }

    @Test func notApplicableTestsAreRead() throws {
        let map = try EndpointMap(
            json: Array(#"{"notApplicable": {"OPT-REG-SELECTION": "no authenticatorSelection"}}"#.utf8))
        #expect(map.notApplicable == ["OPT-REG-SELECTION": "no authenticatorSelection"])
    }
}
