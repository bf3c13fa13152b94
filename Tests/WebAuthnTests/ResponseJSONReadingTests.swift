import Foundation
import TestSupport
import Testing
import WebAuthn

/// An `AuthenticationResponseJSON` reads itself (``WebAuthnJSON/decode(_:from:)``'s fast path) to
/// the value `JSONDecoder` gives, for every real-world assertion and the forms a client may send;
/// what it does not read (extension outputs, a repeated member) `JSONDecoder` still answers, and
/// what `JSONDecoder` refuses is refused with its error.
@Suite struct ResponseJSONReadingTests {
    static let realWorld: [String] = {
        let names = ((try? Vectors.names("realworld")) ?? []).filter { $0.hasPrefix("auth-") }
        return names.compactMap { name in
            let url = Vectors.root.appendingPathComponent("realworld/\(name)")
            guard let data = try? Data(contentsOf: url),
                let vector = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let response = vector["response"],
                let text = try? JSONSerialization.data(withJSONObject: response)
            else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
    }()

    static let response = #"""
        {"id":"AQID","rawId":"AQID","type":"public-key","response":{"clientDataJSON":"eyJ9","authenticatorData":"AAAA","signature":"MEUC"}}
        """#

    static let forms: [String] = [
        response,
        response.replacingOccurrences(of: #""signature":"MEUC""#, with: #""signature":"MEUC","userHandle":"dXNlcg""#),
        response.replacingOccurrences(of: #""signature":"MEUC""#, with: #""signature":"MEUC","userHandle":null"#),
        response.replacingOccurrences(of: #""type""#, with: #""authenticatorAttachment":"platform","type""#),
        response.replacingOccurrences(of: #""type""#, with: #""authenticatorAttachment":null,"type""#),
        response.replacingOccurrences(of: #""type""#, with: #""clientExtensionResults":{},"type""#),
        response.replacingOccurrences(of: #""type""#, with: #""clientExtensionResults":null,"type""#),
        response.replacingOccurrences(of: #""type""#, with: #""clientExtensionResults":{"prf":{}},"type""#),
        response.replacingOccurrences(of: #""type""#, with: #""transports":["usb"],"type""#),
        response.replacingOccurrences(of: #""AQID","type""#, with: #""AQI=","type""#),
        " \n" + response.replacingOccurrences(of: ",", with: " ,\n ") + "\n",
        response.replacingOccurrences(of: #""id":"AQID","#, with: #""id":"AQID","id":"BBBB","#),
        response.replacingOccurrences(of: #""type":"public-key""#, with: #""type":"other""#),
    ]

    static let refusals: [String] = [
        response.replacingOccurrences(of: #""id":"AQID","#, with: ""),
        response.replacingOccurrences(of: #","signature":"MEUC""#, with: ""),
        response.replacingOccurrences(of: #""signature":"MEUC""#, with: #""signature":7"#),
        response.replacingOccurrences(of: #""signature":"MEUC""#, with: #""signature":"ME!C""#),
        response.replacingOccurrences(of: #""type":"public-key""#, with: #""type":null"#),
        String(response.dropLast()),
    ]

    @Test func everyRealWorldAssertionIsRead() {
        #expect(Self.realWorld.count >= 15)
    }

    @Test(arguments: realWorld + forms)
    func readsAsJSONDecoderDoes(_ text: String) throws {
        let bytes = Array(text.utf8)
        let read = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: bytes)
        #expect(read == (try WebAuthnJSON.decodeWithFoundation(AuthenticationResponseJSON.self, from: bytes)))
    }

    @Test(arguments: refusals)
    func refusesAsJSONDecoderDoes(_ text: String) {
        let bytes = Array(text.utf8)
        let decoder = #expect(throws: WebAuthnError.self) {
            try WebAuthnJSON.decodeWithFoundation(AuthenticationResponseJSON.self, from: bytes)
        }
        let ours = #expect(throws: WebAuthnError.self) {
            try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: bytes)
        }
        #expect(ours == decoder)
        #expect(ours?.reason == decoder?.reason)
    }
}
