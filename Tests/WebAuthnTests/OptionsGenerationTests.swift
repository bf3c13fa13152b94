import Synchronization
import TestSupport
import Testing
import WebAuthn

/// The relying party's option generators (WebAuthn L3 §5.4, §5.5): the defaults py_webauthn and
/// SimpleWebAuthn use, every member the caller sets, the challenge kept, and options that a
/// response verifies against.
@Suite struct OptionsGenerationTests {
    static let user = PublicKeyCredentialUserEntityJSON(
        id: Base64URL(Array(repeating: 0xAB, count: 32)), name: "ada@example.org", displayName: "Ada")

    @Test func registrationDefaults() throws {
        let rp = RelyingParty(id: "example.org")
        let generated = rp.generateRegistrationOptions(rpName: "Example", user: Self.user)
        let options = generated.options
        #expect(generated.challenge.count == 32)
        #expect(options.challenge.bytes == generated.challenge)
        #expect(options.rp == PublicKeyCredentialRpEntity(name: "Example", id: "example.org"))
        #expect(options.user == Self.user)
        #expect(options.pubKeyCredParams.map(\.alg) == COSEAlgorithm.signatureAlgorithms.map(\.rawValue))
        #expect(options.pubKeyCredParams.allSatisfy { $0.type == .publicKey })
        #expect(options.timeout == 60_000)
        #expect(options.excludeCredentials == nil)
        #expect(
            options.authenticatorSelection
                == AuthenticatorSelectionCriteria(
                    residentKey: .preferred, requireResidentKey: false, userVerification: .preferred))
        #expect(options.attestation == nil)
        #expect(options.hints == nil)
        #expect(options.extensions == AuthenticationExtensionsClientInputsJSON(credProps: true))
    }

    @Test func authenticationDefaults() {
        let generated = RelyingParty(id: "example.org").generateAuthenticationOptions()
        let options = generated.options
        #expect(generated.challenge.count == 32)
        #expect(options.challenge.bytes == generated.challenge)
        #expect(options.rpId == "example.org")
        #expect(options.timeout == 60_000)
        #expect(options.allowCredentials == nil)
        #expect(options.userVerification == .preferred)
        #expect(options.hints == nil && options.extensions == nil)
    }

    /// Each call draws a new challenge; the generator decides its bytes.
    @Test func challengesComeFromTheGenerator() {
        let rp = RelyingParty(id: "example.org")
        #expect(rp.generateAuthenticationOptions().challenge != rp.generateAuthenticationOptions().challenge)
        #expect(rp.generateAuthenticationOptions(challenge: .secureRandom(byteCount: 64)).challenge.count == 64)
        let counter = Mutex<UInt8>(0)
        let counting = ChallengeGenerator {
            counter.withLock { value in
                value += 1
                return Array(repeating: value, count: 16)
            }
        }
        let first = rp.generateRegistrationOptions(rpName: "Example", user: Self.user, challenge: counting)
        let second = rp.generateAuthenticationOptions(challenge: counting)
        #expect(first.challenge == Array(repeating: 1, count: 16))
        #expect(first.options.challenge.bytes == first.challenge)
        #expect(second.challenge == Array(repeating: 2, count: 16))
        #expect(second.options.challenge.bytes == second.challenge)
    }

    /// `pubKeyCredParams` lists the allowed algorithms in their order, or the ones asked for in theirs.
    @Test func algorithmsKeepTheirOrderOfPreference() {
        let rp = RelyingParty(id: "example.org", allowedAlgorithms: [.eddsa, .es256, .rs256])
        let allowed = rp.generateRegistrationOptions(rpName: "Example", user: Self.user)
        #expect(allowed.options.pubKeyCredParams.map(\.alg) == [-8, -7, -257])
        let asked = rp.generateRegistrationOptions(rpName: "Example", user: Self.user, algorithms: [.rs256, .es256])
        #expect(asked.options.pubKeyCredParams.map(\.alg) == [-257, -7])
    }

    /// Stored credentials become descriptors with their transports, in the order given.
    @Test func storedCredentialsBecomeExcludeAndAllowLists() {
        let records = [
            CredentialRecord(id: [1, 2, 3], publicKey: [], transports: [.internal, .hybrid]),
            CredentialRecord(id: [4, 5], publicKey: []),
        ]
        let expected = [
            PublicKeyCredentialDescriptorJSON(id: Base64URL([1, 2, 3]), transports: [.internal, .hybrid]),
            PublicKeyCredentialDescriptorJSON(id: Base64URL([4, 5])),
        ]
        let rp = RelyingParty(id: "example.org")
        let registration = rp.generateRegistrationOptions(
            rpName: "Example", user: Self.user, excludeCredentials: records.map(\.descriptor))
        #expect(registration.options.excludeCredentials == expected)
        let authentication = rp.generateAuthenticationOptions(allowCredentials: records.map(\.descriptor))
        #expect(authentication.options.allowCredentials == expected)
        #expect(rp.generateAuthenticationOptions(allowCredentials: []).options.allowCredentials == [])
    }

    /// Every member the caller sets is in the options as set.
    @Test func everyMemberTheCallerSetsIsKept() throws {
        let rp = RelyingParty(id: "example.org")
        let registration = rp.generateRegistrationOptions(
            rpName: "Example", user: Self.user, residentKey: .required, userVerification: .discouraged,
            authenticatorAttachment: .crossPlatform, attestation: .direct, hints: [.securityKey, .hybrid],
            extensions: AuthenticationExtensionsClientInputsJSON(
                credProps: true, otherExtensions: ["minPinLength": .bool(true)]),
            timeout: .milliseconds(1500))
        #expect(
            registration.options.authenticatorSelection
                == AuthenticatorSelectionCriteria(
                    authenticatorAttachment: .crossPlatform, residentKey: .required, requireResidentKey: true,
                    userVerification: .discouraged))
        #expect(registration.options.attestation == .direct)
        #expect(registration.options.hints == [.securityKey, .hybrid])
        #expect(registration.options.extensions?.otherExtensions["minPinLength"] == .bool(true))
        #expect(registration.options.timeout == 1500)
        let bare = rp.generateRegistrationOptions(rpName: "Example", user: Self.user, extensions: nil, timeout: nil)
        #expect(bare.options.extensions == nil && bare.options.timeout == nil)

        let authentication = rp.generateAuthenticationOptions(
            userVerification: .required, hints: [.clientDevice],
            extensions: AuthenticationExtensionsClientInputsJSON(
                otherExtensions: ["appid": .string("https://example.org")]),
            timeout: nil)
        #expect(authentication.options.userVerification == .required)
        #expect(authentication.options.hints == [.clientDevice])
        #expect(authentication.options.extensions?.otherExtensions["appid"] == .string("https://example.org"))
        #expect(authentication.options.timeout == nil)
    }

    /// A relying party that requires user verification asks for it, so the client verifies the user.
    @Test func aPolicyRequiringUVAsksForIt() {
        let rp = RelyingParty(id: "example.org", requireUserVerification: true)
        #expect(
            rp.generateRegistrationOptions(rpName: "Example", user: Self.user).options.authenticatorSelection?
                .userVerification == .required)
        #expect(rp.generateAuthenticationOptions().options.userVerification == .required)
    }

    /// The JSON a page receives, byte for byte (members in key order, absent ones left out).
    @Test func theOptionsEncodeAsTheWireForm() {
        let rp = RelyingParty(id: "example.org", allowedAlgorithms: [.es256, .eddsa])
        let fixed = ChallengeGenerator { Array(repeating: 0, count: 16) }
        let registration = rp.generateRegistrationOptions(
            rpName: "Example", user: Self.user,
            excludeCredentials: [CredentialRecord(id: [1], publicKey: [], transports: [.usb]).descriptor],
            challenge: fixed)
        #expect(
            String(decoding: WebAuthnJSON.encode(registration.options), as: UTF8.self)
                == #"{"authenticatorSelection":{"requireResidentKey":false,"residentKey":"preferred","#
                + #""userVerification":"preferred"},"challenge":"AAAAAAAAAAAAAAAAAAAAAA","#
                + #""excludeCredentials":[{"id":"AQ","transports":["usb"],"type":"public-key"}],"#
                + #""extensions":{"credProps":true},"pubKeyCredParams":[{"alg":-7,"type":"public-key"},"#
                + #"{"alg":-8,"type":"public-key"}],"rp":{"id":"example.org","name":"Example"},"timeout":60000,"#
                + #""user":{"displayName":"Ada","id":"q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s","#
                + #""name":"ada@example.org"}}"#)
        let authentication = rp.generateAuthenticationOptions(challenge: fixed)
        #expect(
            String(decoding: WebAuthnJSON.encode(authentication.options), as: UTF8.self)
                == #"{"challenge":"AAAAAAAAAAAAAAAAAAAAAA","rpId":"example.org","timeout":60000,"#
                + #""userVerification":"preferred"}"#)
    }

    /// A registration and an assertion answering generated options verify with the same relying
    /// party, against the challenges it kept.
    @Test func responsesToGeneratedOptionsVerify() throws {
        let rp = RelyingParty(id: "example.org")
        let registration = rp.generateRegistrationOptions(rpName: "Example", user: Self.user)
        var ceremony = try HandmadeCeremony()
        ceremony.challenge = registration.options.challenge.bytes
        let verified = try rp.verifyRegistration(try ceremony.registrationJSON(), challenge: registration.challenge)
        let record = verified.record(userHandle: Self.user.id.bytes, transports: [.internal])

        let authentication = rp.generateAuthenticationOptions(allowCredentials: [record.descriptor])
        ceremony.challenge = authentication.options.challenge.bytes
        let assertion = try ceremony.assertionJSON(userHandle: Self.user.id.bytes)
        let signedIn = try rp.verifyAuthentication(
            assertion, challenge: authentication.challenge, credential: record,
            allowCredentials: authentication.options.allowCredentials?.map(\.id.bytes) ?? [])
        #expect(signedIn.credentialID == record.id)
        #expect(throws: WebAuthnError(.wrongChallenge, "")) {
            try rp.verifyAuthentication(
                assertion, challenge: rp.generateAuthenticationOptions().challenge, credential: record)
        }
    }
}
