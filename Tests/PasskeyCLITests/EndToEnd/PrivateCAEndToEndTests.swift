import Foundation
import TestSupport
import Testing
import WebAuthn

/// `passkey signup` and `passkey login` against `passkey tenant serve --tls-cert … --tls-key …` whose
/// certificate a CA made in the test issued (issue 39): refused until the CA is trusted, then trusted
/// through `--cacert`, `CURL_CA_BUNDLE` or `SSL_CERT_FILE`, in curl's order.
@Suite(.serialized) struct PrivateCAEndToEndTests {
    @Test func theCLITrustsAPrivateCAFromTheFlagOrTheEnvironment() async throws {
        let terminal = try Terminal()
        let files = try TestCertificateAuthority().serverFiles(in: terminal.home)
        let tenant = try await terminal.startTenant(
            arguments: ["--tls-cert", files.certificateChain, "--tls-key", files.privateKey])
        #expect(tenant.url.hasPrefix("https://127.0.0.1:"))

        // The system store does not know the test CA: a TLS failure, and no session.
        let untrusted = try await terminal.passkey("signup", "--email", "ada@example.com", "--json")
        #expect(untrusted.status == 1, "\(untrusted)")
        #expect(try untrusted.json()["error"]?["code"]?.stringValue == "tls", "\(untrusted)")
        #expect(terminal.sessionFiles().isEmpty)

        // --cacert.
        try await terminal.signUp("ada@example.com", "--cacert", files.caCertificate)
        let login = try await terminal.passkey("login", "--cacert", files.caCertificate)
        #expect(login.status == 0, "\(login)")

        // A CA file that is not there is named, not a TLS failure.
        let missing = terminal.home + "/no-such-ca.pem"
        let unreadable = try await terminal.passkey("login", "--cacert", missing, "--json")
        #expect(unreadable.status == 1, "\(unreadable)")
        let error = try unreadable.json()["error"]
        #expect(error?["code"]?.stringValue == "ca-bundle-unreadable", "\(unreadable)")
        #expect(error?["description"]?.stringValue?.contains(missing) == true, "\(unreadable)")

        // SSL_CERT_FILE, then CURL_CA_BUNDLE winning over a wrong SSL_CERT_FILE, then --cacert over both.
        terminal.environment["SSL_CERT_FILE"] = files.caCertificate
        try await terminal.signUp("bob@example.com")
        let bob = try await terminal.passkey("login")
        #expect(bob.status == 0, "\(bob)")
        terminal.environment["SSL_CERT_FILE"] = missing
        terminal.environment["CURL_CA_BUNDLE"] = files.caCertificate
        let curlBundle = try await terminal.passkey("login")
        #expect(curlBundle.status == 0, "\(curlBundle)")
        terminal.environment["CURL_CA_BUNDLE"] = missing
        let flag = try await terminal.passkey("login", "--cacert", files.caCertificate)
        #expect(flag.status == 0, "\(flag)")
        await tenant.stop()
    }
}
