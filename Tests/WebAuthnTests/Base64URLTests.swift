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
            var appended: [UInt8] = [0x2A]
            Base64URL.append(bytes, to: &appended)
            #expect(appended == [0x2A] + Array(Base64URL.encode(bytes).utf8))
            #expect(Base64URL.decodeCanonical(appended.dropFirst()) == bytes)
        }
    }

    /// Only the text `encode` writes is canonical; whatever else `decode` reads is not.
    @Test(arguments: ["AA==", "AAE=", "+/8", "AB", "ABC", "A", "AA AA", "A*AA"])
    func nonCanonicalText(text: String) {
        #expect(!Base64URL.isCanonical(Array(text.utf8)[...]))
        #expect(Base64URL.decodeCanonical(Array(text.utf8)[...]) == nil)
    }
}
