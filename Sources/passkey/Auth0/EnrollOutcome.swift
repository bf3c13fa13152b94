import Auth0Passkeys
import PasskeyKit
import WebAuthn

/// What `passkey enroll` reports.
struct EnrollOutcome: Encodable {
    let methodID: String
    let credentialID: String
    let rpID: String
    let user: SessionReport.User
    let deviceType: String

    init(_ result: EnrollmentResult, user: UserInfo) {
        methodID = result.method.id
        credentialID = result.registration.id
        rpID = result.method.relyingPartyIdentifier
        self.user = SessionReport.User(user)
        deviceType = result.method.credential.deviceType.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case user
        case methodID = "authentication_method_id"
        case credentialID = "credential_id"
        case rpID = "rp_id"
        case deviceType = "device_type"
    }

    var text: String {
        "Enrolled passkey \(credentialID) for \(user.text) on \(rpID) (\(deviceType)); "
            + "authentication method \(methodID)."
    }
}
