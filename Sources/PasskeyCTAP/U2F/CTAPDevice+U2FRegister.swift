import PasskeyAuthenticator
import WebAuthn

extension CTAPDevice {
    /// U2F_REGISTER (FIDO U2F Raw Message Formats v1.2 §4): after a test of user presence, the
    /// authenticator makes a P-256 credential for the application parameter and attests it
    /// (`Authenticator.registerU2F`).
    ///
    /// P1 is not read: clients send 0x00 or 0x03, and every registration tests presence.
    ///
    /// ```
    /// request  = challenge (32) ‖ application (32)
    /// response = 0x05 ‖ publicKey (65) ‖ keyHandleLength (1) ‖ keyHandle ‖ certificate ‖ signature
    /// ```
    func u2fRegister(_ command: U2FCommandAPDU, _ transaction: CTAPTransaction) async throws(U2FStatusWord)
        -> [UInt8]
    {
        let (challenge, application, _) = try Self.u2fParameters(command.data, readingKeyHandle: false)
        try await requireU2FPresence(
            UserPresenceRequest(command: .makeCredential, rpID: StoredCredential.u2fRPID(application: application)),
            transaction)
        let registration = try await u2fAuthenticating { () async throws(AuthenticatorError) in
            try await authenticator.registerU2F(application: application, challenge: challenge)
        }
        var response: [UInt8] = [0x05]
        response += registration.publicKey
        response.append(UInt8(registration.keyHandle.count))
        response += registration.keyHandle
        response += registration.certificate
        response += registration.signature
        return response
    }

    /// The challenge and application parameters that begin the request data of U2F_REGISTER and
    /// U2F_AUTHENTICATE (§4.1, §5.1) and, for the latter, the key handle after its length byte.
    ///
    /// - Parameters:
    ///   - data: the request data.
    ///   - readingKeyHandle: whether a key handle follows (U2F_AUTHENTICATE).
    /// - Returns: the parameters, and the key handle (empty when not read).
    /// - Throws: ``U2FStatusWord/wrongLength`` when the data is shorter or longer than that.
    static func u2fParameters(_ data: [UInt8], readingKeyHandle: Bool) throws(U2FStatusWord)
        -> (challenge: [UInt8], application: [UInt8], keyHandle: [UInt8])
    {
        var reader = ByteReader(data[...], subject: "U2F request data", code: .malformedEncoding)
        let challenge: [UInt8]
        let application: [UInt8]
        var keyHandle: [UInt8] = []
        do {
            challenge = Array(try reader.read(SHA256Digest.digestLength, "challenge parameter"))
            application = Array(try reader.read(SHA256Digest.digestLength, "application parameter"))
            if readingKeyHandle {
                let length = try reader.readUInt8("key handle length")
                keyHandle = Array(try reader.read(Int(length), "key handle"))
            }
        } catch {
            throw .wrongLength
        }
        guard reader.isAtEnd else { throw .wrongLength }
        return (challenge, application, keyHandle)
    }
}
