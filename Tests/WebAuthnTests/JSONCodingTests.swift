import TestSupport
import Testing
import WebAuthn

/// Decoding failures, leniency, pass-through of unknown values, and what encoding writes.
@Suite struct JSONCodingTests {
    static let validCreationOptions = """
        {"rp":{"name":"A/B","id":"example.org"},"user":{"id":"AQID","name":"alice","displayName":"Alice"},\
        "challenge":"AAECAw","pubKeyCredParams":[{"type":"public-key","alg":-7}]}
        """

    static let validRegistration = """
        {"id":"AQID","rawId":"AQID","type":"public-key",\
        "response":{"clientDataJSON":"e30","attestationObject":"oA"},"clientExtensionResults":{}}
        """

    /// `text` with one substring replaced, as bytes; fails the test if `old` is not there.
    static func changing(_ text: String, _ old: String, to new: String) throws -> [UInt8] {
        let parts = text.split(separator: old, maxSplits: 1, omittingEmptySubsequences: false)
        try #require(parts.count == 2, "\(old) not in the valid input")
        return Array((parts[0] + new + parts[1]).utf8)
    }

    /// Decodes and expects a `.malformedJSON` error whose reason starts with `path`.
    static func expectMalformed<Value: Decodable>(
        _ type: Value.Type, _ bytes: [UInt8], path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: WebAuthnError.self, sourceLocation: sourceLocation) {
            try WebAuthnJSON.decode(type, from: bytes)
        }
        #expect(error?.code == .malformedJSON, sourceLocation: sourceLocation)
        #expect(
            error?.reason.hasPrefix(path + ":") == true, "\(String(describing: error))", sourceLocation: sourceLocation)
    }

    @Test func validInputsDecode() throws {
        _ = try WebAuthnJSON.decode(
            PublicKeyCredentialCreationOptionsJSON.self, from: Array(Self.validCreationOptions.utf8))
        _ = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: Array(Self.validRegistration.utf8))
    }

    // MARK: Negatives

    @Test func missingChallenge() throws {
        let bytes = try Self.changing(Self.validCreationOptions, #""challenge":"AAECAw","#, to: "")
        Self.expectMalformed(PublicKeyCredentialCreationOptionsJSON.self, bytes, path: "challenge")
    }

    @Test func missingNestedMember() throws {
        let bytes = try Self.changing(Self.validRegistration, #""attestationObject":"oA""#, to: #""x":"oA""#)
        Self.expectMalformed(RegistrationResponseJSON.self, bytes, path: "response.attestationObject")
    }

    @Test func rawIdNotBase64URL() throws {
        let bytes = try Self.changing(Self.validRegistration, #""rawId":"AQID""#, to: #""rawId":"AQ*/""#)
        Self.expectMalformed(RegistrationResponseJSON.self, bytes, path: "rawId")
    }

    @Test func attestationObjectNotBase64URL() throws {
        let bytes = try Self.changing(Self.validRegistration, #""oA""#, to: #""o A""#)
        Self.expectMalformed(RegistrationResponseJSON.self, bytes, path: "response.attestationObject")
    }

    @Test func algOfWrongType() throws {
        let bytes = try Self.changing(Self.validCreationOptions, #""alg":-7"#, to: #""alg":"ES256""#)
        Self.expectMalformed(PublicKeyCredentialCreationOptionsJSON.self, bytes, path: "pubKeyCredParams[0].alg")
    }

    @Test func transportOfWrongType() throws {
        let bytes = try Self.changing(
            Self.validRegistration, #""attestationObject":"oA""#, to: #""attestationObject":"oA","transports":[1]"#)
        Self.expectMalformed(RegistrationResponseJSON.self, bytes, path: "response.transports[0]")
    }

    @Test func nullForRequiredMember() throws {
        let bytes = try Self.changing(Self.validRegistration, #""id":"AQID""#, to: #""id":null"#)
        Self.expectMalformed(RegistrationResponseJSON.self, bytes, path: "id")
    }

    @Test(arguments: ["-1", "1.5", "4294967296"])
    func timeoutOutOfRange(timeout: String) throws {
        let bytes = try Self.changing(
            Self.validCreationOptions, #""challenge""#, to: #""timeout":\#(timeout),"challenge""#)
        let error = #expect(throws: WebAuthnError.self) {
            try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: bytes)
        }
        #expect(error?.code == .malformedJSON)
        #expect(error?.reason.contains("number") == true)
    }

    @Test func notJSON() {
        Self.expectMalformed(RegistrationResponseJSON.self, Array("{\"id\":".utf8), path: "top level")
        Self.expectMalformed(RegistrationResponseJSON.self, Array("[]".utf8), path: "top level")
    }

    // MARK: Leniency and pass-through

    @Test func unknownEnumStringsRoundTrip() throws {
        let text = """
            {"rp":{"name":"n"},"user":{"id":"AA","name":"n","displayName":"n"},"challenge":"AA",\
            "pubKeyCredParams":[{"type":"future-key","alg":-48}],\
            "excludeCredentials":[{"type":"future-key","id":"AA","transports":["satellite","usb"]}],\
            "authenticatorSelection":{"authenticatorAttachment":"wearable","residentKey":"maybe",\
            "userVerification":"sometimes"},"hints":["watch"],"attestation":"notarised"}
            """
        let options = try WebAuthnJSON.decode(PublicKeyCredentialCreationOptionsJSON.self, from: Array(text.utf8))
        #expect(options.pubKeyCredParams == [.init(type: "future-key", alg: -48)])
        #expect(options.excludeCredentials?.first?.transports == ["satellite", .usb])
        #expect(options.authenticatorSelection?.authenticatorAttachment?.rawValue == "wearable")
        #expect(options.authenticatorSelection?.residentKey == ResidentKeyRequirement(rawValue: "maybe"))
        #expect(options.authenticatorSelection?.userVerification == "sometimes")
        #expect(options.hints == ["watch"])
        #expect(options.attestation == "notarised")
        #expect(
            try Vectors.jsonValue(options) == WebAuthnJSON.decode(JSONValue.self, from: Array(text.utf8)))
    }

    @Test func extensionInputsRoundTrip() throws {
        let text = """
            {"challenge":"AA","extensions":{"credProps":true,\
            "prf":{"eval":{"first":"AQ"},"evalByCredential":{"AQID":{"first":"Ag","second":"Aw"}}},\
            "largeBlob":{"support":"required"},"example.org/x":[1,"a",null,{"b":false}],"nothing":null}}
            """
        let options = try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(text.utf8))
        let extensions = try #require(options.extensions)
        #expect(extensions.credProps == true)
        #expect(extensions.prf?.eval == .init(first: Base64URL([1])))
        #expect(extensions.prf?.evalByCredential?["AQID"] == .init(first: Base64URL([2]), second: Base64URL([3])))
        #expect(extensions.otherExtensions["largeBlob"] == .object(["support": .string("required")]))
        #expect(
            extensions.otherExtensions["example.org/x"]
                == .array([.number(1), .string("a"), .null, .object(["b": .bool(false)])]))
        #expect(extensions.otherExtensions["nothing"] == .null)
        #expect(extensions.otherExtensions.count == 3)
        #expect(
            try Vectors.jsonValue(options) == WebAuthnJSON.decode(JSONValue.self, from: Array(text.utf8)))
    }

    @Test func extensionOutputsRoundTrip() throws {
        let text = """
            {"id":"AQID","rawId":"AQID","type":"public-key",\
            "response":{"clientDataJSON":"e30","authenticatorData":"AA","signature":"AA"},\
            "clientExtensionResults":{"credProps":{"rk":true},"prf":{"enabled":true,"results":{"first":"AQ"}},\
            "appid":false,"hmacCreateSecret":true}}
            """
        let response = try WebAuthnJSON.decode(AuthenticationResponseJSON.self, from: Array(text.utf8))
        let outputs = response.clientExtensionResults
        #expect(outputs.credProps == CredentialPropertiesOutput(rk: true))
        #expect(outputs.prf == .init(enabled: true, results: .init(first: Base64URL([1]))))
        #expect(outputs.otherExtensions == ["appid": .bool(false), "hmacCreateSecret": .bool(true)])
        #expect(
            try Vectors.jsonValue(response) == WebAuthnJSON.decode(JSONValue.self, from: Array(text.utf8)))
    }

    @Test func typedMemberWinsOverPassThroughOfSameName() throws {
        let outputs = AuthenticationExtensionsClientOutputsJSON(
            credProps: .init(rk: true), otherExtensions: ["credProps": .string("shadow"), "appid": .bool(true)])
        #expect(
            String(decoding: WebAuthnJSON.encode(outputs), as: UTF8.self) == #"{"appid":true,"credProps":{"rk":true}}"#)
    }

    @Test func nullOptionalMembersDecodeAsAbsent() throws {
        let text = """
            {"challenge":"AA","timeout":null,"rpId":null,"allowCredentials":null,"userVerification":null,\
            "hints":null,"extensions":null}
            """
        let options = try WebAuthnJSON.decode(PublicKeyCredentialRequestOptionsJSON.self, from: Array(text.utf8))
        #expect(options == PublicKeyCredentialRequestOptionsJSON(challenge: Base64URL([0])))

        let response = try WebAuthnJSON.decode(
            RegistrationResponseJSON.self,
            from: Self.changing(
                Self.validRegistration, #""clientExtensionResults":{}"#,
                to: #""clientExtensionResults":null,"authenticatorAttachment":null"#))
        #expect(response.clientExtensionResults == AuthenticationExtensionsClientOutputsJSON())
        #expect(response.authenticatorAttachment == nil)
    }

    @Test func missingClientExtensionResultsDecodesAsEmptyAndIsAlwaysEncoded() throws {
        let bytes = try Self.changing(Self.validRegistration, #","clientExtensionResults":{}"#, to: "")
        let response = try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: bytes)
        #expect(response.clientExtensionResults == AuthenticationExtensionsClientOutputsJSON())
        #expect(
            String(decoding: WebAuthnJSON.encode(response), as: UTF8.self).contains(#""clientExtensionResults":{}"#))
    }

    @Test func unknownMembersAreIgnored() throws {
        let bytes = try Self.changing(
            Self.validRegistration, #""type":"public-key""#,
            to: #""type":"public-key","transports":["usb"],"getClientExtensionResults":{}"#)
        #expect(
            try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: bytes)
                == WebAuthnJSON.decode(RegistrationResponseJSON.self, from: Array(Self.validRegistration.utf8)))
    }

    @Test func paddedBase64URLDecodes() throws {
        let bytes = try Self.changing(Self.validRegistration, #""rawId":"AQID""#, to: #""rawId":"AQI=""#)
        #expect(try WebAuthnJSON.decode(RegistrationResponseJSON.self, from: bytes).rawId.bytes == [1, 2])
    }

    // MARK: Encoding

    @Test func encodingOmitsAbsentOptionals() {
        let response = RegistrationResponseJSON(
            rawId: Base64URL([1, 2, 3]),
            response: .init(clientDataJSON: Base64URL(Array("{}".utf8)), attestationObject: Base64URL([0xA0])))
        let text = String(decoding: WebAuthnJSON.encode(response), as: UTF8.self)
        #expect(!text.contains("null"))
        #expect(
            text == """
                {"clientExtensionResults":{},"id":"AQID","rawId":"AQID",\
                "response":{"attestationObject":"oA","clientDataJSON":"e30"},"type":"public-key"}
                """)
    }

    @Test func encodingIsSortedAndDoesNotEscapeSlashes() throws {
        let options = try WebAuthnJSON.decode(
            PublicKeyCredentialCreationOptionsJSON.self, from: Array(Self.validCreationOptions.utf8))
        let text = String(decoding: WebAuthnJSON.encode(options), as: UTF8.self)
        #expect(
            text == """
                {"challenge":"AAECAw","pubKeyCredParams":[{"alg":-7,"type":"public-key"}],\
                "rp":{"id":"example.org","name":"A/B"},"user":{"displayName":"Alice","id":"AQID","name":"alice"}}
                """)
    }

    @Test func memberwiseResponseFillsIDFromRawID() {
        let response = AuthenticationResponseJSON(
            rawId: Base64URL([0xFB, 0xFF]),
            response: .init(clientDataJSON: Base64URL([]), authenticatorData: Base64URL([]), signature: Base64URL([])))
        #expect(response.id == "-_8")
        #expect(response.type == .publicKey)
    }
}
