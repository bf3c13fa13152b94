import PasskeyAuthenticator
import Testing
import WebAuthn

@testable import PasskeyCTAP

/// A U2F client over a ``CTAPDevice``'s U2F side, building APDUs as python-fido2's `Ctap1` does
/// (extended length, Le 0000), and the pieces a relying party checks.
struct U2FClient {
    static let rpID = CommandsFixture.rpID
    static let application = SHA256Digest.hash(Array(rpID.utf8))
    let device: CTAPDevice

    /// One response: its data and its status word.
    struct Response {
        let data: [UInt8]
        let status: UInt16
    }

    /// An extended-length APDU: header, 00, Lc (2), data, Le 0000.
    static func apdu(cla: UInt8 = 0, ins: UInt8, p1: UInt8 = 0, p2: UInt8 = 0, data: [UInt8] = []) -> [UInt8] {
        [cla, ins, p1, p2, 0, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] + data + [0, 0]
    }

    func send(_ apdu: [UInt8], transaction: CTAPTransaction = CTAPTransaction(channel: 1)) async throws -> Response {
        let answer = await device.handleU2F(apdu, context: transaction)
        try #require(answer.count >= 2)
        return Response(
            data: Array(answer.dropLast(2)), status: UInt16(answer[answer.count - 2]) << 8 | UInt16(answer.last!))
    }

    func register(challenge: [UInt8], application: [UInt8] = application) async throws -> Response {
        try await send(Self.apdu(ins: 0x01, p1: 0x03, data: challenge + application))
    }

    func authenticate(
        _ p1: UInt8, challenge: [UInt8], application: [UInt8] = application, keyHandle: [UInt8]
    ) async throws -> Response {
        try await send(
            Self.apdu(ins: 0x02, p1: p1, data: challenge + application + [UInt8(keyHandle.count)] + keyHandle))
    }
}

/// A U2F_REGISTER response, read as FIDO U2F Raw Message Formats v1.2 §4.3 lays it out.
struct U2FRegisterResponse {
    let publicKey: [UInt8]
    let keyHandle: [UInt8]
    let certificate: [UInt8]
    let signature: [UInt8]

    init(_ data: [UInt8]) throws {
        var rest = data[...]
        let reserved = rest.popFirst()
        #expect(reserved == 0x05, "the reserved byte")
        publicKey = Array(rest.prefix(65))
        rest = rest.dropFirst(65)
        let lengthByte = rest.popFirst()
        let length = Int(try #require(lengthByte))
        keyHandle = Array(rest.prefix(length))
        rest = rest.dropFirst(length)
        // The certificate is one DER SEQUENCE: its length from its header (0x30 0x82 hi lo).
        try #require(rest.count > 4 && rest.first == 0x30 && rest.dropFirst().first == 0x82)
        let body = Int(rest.dropFirst(2).first!) << 8 | Int(rest.dropFirst(3).first!)
        certificate = Array(rest.prefix(4 + body))
        signature = Array(rest.dropFirst(4 + body))
    }

    /// The credential public key as COSE (x and y of the uncompressed point).
    var coseKey: COSEKey {
        COSEKey(
            algorithm: .es256,
            parameters: .ec2(curve: .p256, x: Array(publicKey[1...32]), y: Array(publicKey[33...64])))
    }

    /// The WebAuthn `fido-u2f` attestation object a client builds from this response (WebAuthn L3
    /// §8.6; CTAP 2.1 §10.2 step 6): authData with the application parameter as RP ID hash, UP and
    /// AT, counter 0, a zero AAGUID.
    func attestationObject(application: [UInt8]) throws -> [UInt8] {
        let authenticatorData = AuthenticatorData(
            rpIDHash: application, flags: [.userPresent, .attestedCredentialData], signCount: 0,
            attestedCredentialData: try AttestedCredentialData(
                aaguid: .zero, credentialID: keyHandle, publicKey: coseKey))
        let object: CBOR = [
            "fmt": "fido-u2f", "attStmt": ["sig": .bytes(signature), "x5c": [.bytes(certificate)]],
            "authData": .bytes(authenticatorData.bytes),
        ]
        return object.encoded()
    }
}
