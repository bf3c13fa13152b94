import Foundation
import TestSupport
import Testing

@testable import WebAuthn

/// The options' fast path (``JSONScanner``, ``JSONReadable``) reads every text to the value
/// `JSONDecoder` gives, or steps aside so that `JSONDecoder` answers, with its error.
@Suite struct JSONScannerTests {
    /// Decodes with both paths: the same value, or the same error.
    func agree<Value: Decodable & Equatable & JSONReadable>(
        _ type: Value.Type, _ text: String, _ given: [UInt8]? = nil
    ) {
        let bytes = given ?? Array(text.utf8)
        let fast = Result { () throws(WebAuthnError) in try WebAuthnJSON.decode(type, from: bytes) }
        let foundation = Result { () throws(WebAuthnError) in try WebAuthnJSON.decodeWithFoundation(type, from: bytes) }
        switch (fast, foundation) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
        case (.failure(let a), .failure(let b)): #expect(a.reason == b.reason, "\(text)")
        default: Issue.record("the paths disagree on \(text): \(fast) vs \(foundation)")
        }
    }

    /// Whether the fast path reads `text` itself.
    func readsItself<Value: JSONReadable>(_ type: Value.Type, _ text: String) -> Bool {
        var scanner = JSONScanner(Array(text.utf8))
        return (try? Value(scanning: &scanner)) != nil && (try? scanner.end()) != nil
    }

    @Test(arguments: try Vectors.names("pywebauthn-options"))
    func pyWebAuthnsOptionsReadThemselvesAsJSONDecoderReadsThem(name: String) throws {
        let text = String(decoding: try Vectors.bytes("pywebauthn-options", name), as: UTF8.self)
        if name.hasPrefix("registration-") {
            agree(PublicKeyCredentialCreationOptionsJSON.self, text)
            #expect(readsItself(PublicKeyCredentialCreationOptionsJSON.self, text) || text.contains("\"extensions\""))
        } else {
            agree(PublicKeyCredentialRequestOptionsJSON.self, text)
            #expect(readsItself(PublicKeyCredentialRequestOptionsJSON.self, text) || text.contains("\"extensions\""))
        }
    }

    static let requests: [String] = [
        #"{"challenge":"AAEC"}"#,
        #" { "challenge" : "AAEC" , "timeout" : 60000 , "rpId" : "example.com" } "#,
        #"{"challenge":"AAEC","timeout":null,"rpId":null,"allowCredentials":null,"userVerification":null}"#,
        #"{"challenge":"AAE=","allowCredentials":[{"type":"public-key","id":"AQID","transports":["usb","hybrid"]},{"id":"BA","type":"x"}]}"#,
        #"{"challenge":"AAEC","allowCredentials":[],"hints":["security-key","client-device"],"userVerification":"preferred"}"#,
        #"{"challenge":"AAEC","extensions":{"credProps":true,"prf":{"eval":{"first":"AAAA","second":null},"evalByCredential":{"AQID":{"first":"BBBB"}}}}}"#,
        #"{"challenge":"AAEC","extensions":{"appid":"https://example.com"}}"#,
        #"{"challenge":"AAEC","unknown":{"nested":[1,-2.5e+3,true,false,null,"\u00e9\ud83d\ude00\n\"\\\/"]}}"#,
        #"{"challenge":"AAEC","rpId":"caf\u00e9.example","userVerification":"\ud83d\ude00"}"#,
        #"{"challenge":"AAEC","rpId":"café.example"}"#,
        // What the fast path leaves to JSONDecoder, which accepts or refuses each.
        #"{"challenge":"AAEC","challenge":"AAAA"}"#, #"{"challenge":"AAEC","timeout":6e4}"#,
        #"{"challenge":"AAEC","timeout":60000.0}"#, #"{"challenge":"AAEC","timeout":-1}"#,
        #"{"challenge":"AAEC","timeout":-0}"#, #"{"challenge":"AAEC","timeout":4294967296}"#,
        #"{"challenge":"AAEC","timeout":01}"#, #"{"challenge":"AAE"}"#, #"{"challenge":"AA=C"}"#,
        #"{"challenge":null}"#, #"{"timeout":1}"#, #"{"challenge":"AAEC","rpId":"\ud800"}"#,
        #"{"challenge":"AAEC","rpId":"\u12"}"#, #"{"challenge":"AAEC","x":[1,]}"#, #"{"challenge":"AAEC",}"#,
        #"{"challenge":"AAEC"} x"#, #"{"challenge":"AAEC""#, "", "[]", "null", "\u{FEFF}{\"challenge\":\"AAEC\"}",
        "{\"challenge\":\"AA\u{01}EC\"}", #"{"challenge":"AAEC","allowCredentials":[{"id":"AQID"}]}"#,
        #"{"challenge":"AAEC","allowCredentials":[{"type":"public-key","id":"AQID","type":"x"}]}"#,
        #"{"challenge":"AAEC","extensions":{"credProps":1}}"#, #"{"challenge":"AAEC","x":.5}"#,
        #"{"challenge":"AAEC","x":5.}"#, #"{"challenge":"AAEC","x":+5}"#, #"{"challenge":"AAEC","x":1e}"#,
    ]

    @Test(arguments: requests)
    func requestOptionsAgree(_ text: String) {
        agree(PublicKeyCredentialRequestOptionsJSON.self, text)
    }

    static let creations: [String] = [
        #"{"rp":{"name":"Example","id":"example.com"},"user":{"id":"AQID","name":"alice","displayName":"Alice"},"challenge":"AAEC","pubKeyCredParams":[{"type":"public-key","alg":-7},{"type":"public-key","alg":-257}]}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a","displayName":""},"challenge":"AAEC","pubKeyCredParams":[],"timeout":1,"excludeCredentials":[{"type":"public-key","id":"AQID"}],"authenticatorSelection":{"authenticatorAttachment":"platform","residentKey":"required","requireResidentKey":true,"userVerification":"required"},"hints":["hybrid"],"attestation":"direct","attestationFormats":["packed","tpm"],"extensions":{"credProps":true,"prf":{}}}"#,
        #"{"rp":{"name":"E","id":null},"user":{"id":"AQ","name":"a","displayName":"b"},"challenge":"AAEC","pubKeyCredParams":[{"alg":-9223372036854775808,"type":"t"}],"authenticatorSelection":{}}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a","displayName":"b"},"challenge":"AAEC","pubKeyCredParams":[{"alg":-7.0,"type":"public-key"}]}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a"},"challenge":"AAEC","pubKeyCredParams":[]}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a","displayName":"b"},"challenge":"AAEC","pubKeyCredParams":null}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a","displayName":"b"},"challenge":"AAEC","pubKeyCredParams":[{"alg":9223372036854775808,"type":"public-key"}]}"#,
        #"{"rp":{"name":"E"},"user":{"id":"AQ","name":"a","displayName":"b"},"challenge":"AAEC","pubKeyCredParams":[],"authenticatorSelection":{"requireResidentKey":"yes"}}"#,
    ]

    @Test(arguments: creations)
    func creationOptionsAgree(_ text: String) {
        agree(PublicKeyCredentialCreationOptionsJSON.self, text)
    }

    /// The plain cases are read by the fast path itself, not handed to JSONDecoder.
    @Test func thePlainCasesAreReadByTheFastPath() {
        for text in Self.requests.prefix(6) + Self.requests.dropFirst(7).prefix(3) {
            #expect(readsItself(PublicKeyCredentialRequestOptionsJSON.self, text), "\(text)")
        }
        for text in Self.creations.prefix(3) {
            #expect(readsItself(PublicKeyCredentialCreationOptionsJSON.self, text), "\(text)")
        }
    }

    /// Mutated options (a byte changed, dropped or doubled, deterministically) read the same
    /// through both paths: a differential check of the fast path over inputs nobody wrote by hand.
    @Test func mutatedOptionsAgree() throws {
        var generator = SplitMix64(seed: 13)
        let seeds = Self.requests.prefix(10).map { Array($0.utf8) }
        let alphabet = Array(#"{}[]:,"\ -.0123456789eEnulltruefalseAQIDé"#.utf8) + [0x00, 0x1F, 0xC3, 0xFF]
        for _ in 0..<3000 {
            var bytes = seeds[Int(generator.next() % UInt64(seeds.count))]
            for _ in 0..<(1 + generator.next() % 3) where !bytes.isEmpty {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: position)
                default: bytes.insert(bytes[position], at: position)
                }
            }
            agree(PublicKeyCredentialRequestOptionsJSON.self, String(decoding: bytes, as: UTF8.self), bytes)
        }
    }

    static let clientData: [String] = [
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","crossOrigin":false}"#,
        #"{"type":"webauthn.create","challenge":"AAEC","origin":"https://a.example","crossOrigin":true,"topOrigin":"https://b.example","other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","tokenBinding":null,"x":"\u00e9\n"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","tokenBinding":{"status":"present"}}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","n":1.5}"#,
        #"{"type":"webauthn.get","type":"webauthn.create","challenge":"AAEC","origin":"https://example.com"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC","origin":"https://example.com","crossOrigin":"no"}"#,
        #"{"type":"webauthn.get","challenge":"AAEC"}"#, #"{"type":"webauthn.get",}"#, "[]", "",
    ]

    /// Client data reads to what `JSONDecoder`'s members give, by the fast path or not.
    @Test(arguments: clientData)
    func clientDataAgreesWithJSONDecoder(_ text: String) throws {
        let members = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
        guard let parsed = try? CollectedClientData(bytes: Array(text.utf8)) else {
            let valid =
                members.map {
                    $0["type"]?.stringValue != nil && $0["challenge"]?.stringValue != nil
                        && $0["origin"]?.stringValue != nil && ($0["crossOrigin"].map { $0.boolValue != nil } ?? true)
                } ?? false
            #expect(!valid, "\(text)")
            return
        }
        let expected = try #require(members)
        #expect(parsed.type.rawValue == expected["type"]?.stringValue)
        #expect(parsed.challenge == expected["challenge"]?.stringValue)
        #expect(parsed.origin == expected["origin"]?.stringValue)
        #expect(parsed.crossOrigin == expected["crossOrigin"]?.boolValue)
        #expect(parsed.topOrigin == expected["topOrigin"]?.stringValue)
        #expect(
            parsed.otherMembers
                == expected.filter { !["type", "challenge", "origin", "crossOrigin", "topOrigin"].contains($0.key) })
    }

    /// Hostile nesting in an ignored member neither exhausts the stack nor gets past JSONDecoder.
    @Test func deepNestingIsLeftToJSONDecoder() {
        for depth in [31, 33, 100_000] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            agree(PublicKeyCredentialRequestOptionsJSON.self, #"{"challenge":"AAEC","x":"# + nested + "}")
        }
    }

    /// Options a relying party writes with this library read back through the fast path.
    @Test(arguments: 0..<20)
    func encodedOptionsReadBack(_ variant: Int) throws {
        let request = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL(SecureRandom.bytes(32)), timeout: variant % 2 == 0 ? UInt32(variant) * 1000 : nil,
            rpId: variant % 3 == 0 ? nil : "rp\(variant).example\u{00e9}\"\\",
            allowCredentials: (0..<(variant % 4)).map { _ in
                PublicKeyCredentialDescriptorJSON(id: Base64URL(SecureRandom.bytes(16)), transports: [.internal])
            },
            userVerification: variant % 2 == 0 ? .required : nil,
            extensions: variant % 5 == 0
                ? .init(prf: .init(eval: .init(first: Base64URL(SecureRandom.bytes(32))))) : nil)
        let text = String(decoding: WebAuthnJSON.encode(request), as: UTF8.self)
        #expect(readsItself(PublicKeyCredentialRequestOptionsJSON.self, text))
        #expect(try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(text.utf8)) == request)
    }
}

/// A member kept as its text (``JSONText``): the fast path hands on the member's bytes as they
/// came, syntax checked; `JSONDecoder`'s path, taken when the fast path steps aside, writes the
/// same value again. Either way the text reads back to the options it was.
@Suite struct JSONTextMemberTests {
    struct Body: Codable, Equatable, JSONObject {
        var origin: String
        var options: JSONText

        static var jsonMembers: JSONMembers<Self> {
            JSONMembers([.member("origin", \.origin), .member("options", \.options)])
        }

        static var unread: Self { Self(origin: "", options: .unread) }
    }

    @Test(arguments: JSONScannerTests.requests)
    func theOptionsTextIsHandedOnAsItCameOrAsTheSameValue(options: String) throws {
        let body = #"{"origin":"https://example.com","options":"# + options + "}"
        guard let decoded = try? WebAuthnJSON.decode(Body.self, from: Array(body.utf8)) else {
            // Not JSON at all: JSONDecoder refuses the body, as it would have refused the options.
            #expect(throws: WebAuthnError.self) {
                try WebAuthnJSON.decodeWithFoundation(Body.self, from: Array(body.utf8))
            }
            return
        }
        var scanner = JSONScanner(Array(body.utf8))
        if (try? Body(scanning: &scanner)) != nil {
            #expect(decoded.options.bytes == Array(options.trimmingCharacters(in: .whitespaces).utf8))
        }
        let again = try? WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: decoded.options.bytes)
        let original = try? WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(options.utf8))
        #expect(again == original, "\(options)")
    }

    @Test func aMalformedMemberIsRefusedNotHandedOn() {
        let bodies = [
            #"{"origin":"o","options":{"challenge":}"#, #"{"origin":"o","options":[1 2]}"#, #"{"origin":"o"}"#,
        ]
        for body in bodies {
            #expect(throws: WebAuthnError.self, "\(body)") {
                try WebAuthnJSON.decode(Body.self, from: Array(body.utf8))
            }
        }
    }
}
