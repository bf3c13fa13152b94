import Testing
import WebAuthn

@Suite struct Base64URLTests {
    @Test(
        arguments: [
            ("", []), ("AA", [0]), ("AAE", [0, 1]), ("AAEC", [0, 1, 2]), ("-_8", [0xFB, 0xFF]),
        ] as [(String, [UInt8])])
    func roundTrip(text: String, bytes: [UInt8]) throws {
        #expect(Base64URL.encode(bytes) == text)
        #expect(try Base64URL.decode(text) == bytes)
    }

    @Test func acceptsPadding() throws {
        #expect(try Base64URL.decode("AA==") == [0])
        #expect(try Base64URL.decode("AAE=") == [0, 1])
    }

    @Test func acceptsTheStandardAlphabet() throws {
        #expect(try Base64URL.decode("+/8") == Base64URL.decode("-_8"))
    }

    @Test(arguments: ["A", "AA=", "A===", "AA==AA", "AB", "AA AA", "AAB=", "A*AA"])
    func rejects(text: String) {
        #expect(throws: WebAuthnError(.malformedEncoding, "")) { try Base64URL.decode(text) }
    }

    @Test func everyLengthRoundTrips() throws {
        for length in 0..<64 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(try Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}
