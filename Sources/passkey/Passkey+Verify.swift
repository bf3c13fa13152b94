import ArgumentParser
import Foundation
import WebAuthn

extension Passkey {
    /// `passkey verify`: relying-party verification of a response.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify a WebAuthn response as a relying party would (WebAuthn L3 §7).",
            discussion: "A verified response prints what the relying party keeps: text on a terminal, JSON when "
                + "standard output is a pipe or a file, or with --json. A failed check prints one line on standard "
                + "error that starts with the reason code (wrong-origin, bad-signature, ...) and exits 1; input that "
                + "does not parse exits 2.",
            subcommands: [Registration.self, Authentication.self]
        )
    }
}

/// What both `verify` commands take: the response and what the relying party expects.
struct RelyingPartyOptions: ParsableArguments {
    @Option(help: "The response JSON (RegistrationResponseJSON or AuthenticationResponseJSON), or - for stdin.")
    var response: String

    @Option(help: "The challenge that was issued, as base64url text (padded or not).")
    var challenge: String

    @Option(name: .customLong("origin"), help: "An accepted origin (repeat for several).")
    var origins: [String]

    @Option(name: .customLong("rp-id"), help: "The RP ID (repeat for several).")
    var rpIDs: [String]

    @Flag(name: .customLong("require-uv"), help: "Require user verification (UV).")
    var requireUserVerification = false

    @Flag(name: .customLong("allow-cross-origin"), help: "Accept ceremonies from cross-origin iframes.")
    var allowsCrossOrigin = false

    @Option(name: .customLong("top-origin"), help: "An accepted top-level origin of a cross-origin call (repeatable).")
    var topOrigins: [String] = []

    @Option(
        name: .customLong("algorithm"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "A credential algorithm the relying party accepts, by name or COSE ID (repeatable; default: all but RS1).",
            discussion: "Checked at registration (WebAuthn L3 §7.1 step 20) against the pubKeyCredParams offered; "
                + "an assertion is checked with the key stored then (§7.2).",
            valueName: "name|id"))
    var algorithms: [COSEAlgorithm] = []

    @OptionGroup var format: OutputOptions

    /// The challenge's bytes. The text is read as a browser reads `challenge` in options JSON
    /// (padding and unused low bits ignored), so client data that carries another encoding is
    /// `wrong-challenge` (WebAuthn L3 §7.1 step 8, §7.2 step 11), not a malformed option.
    func challengeBytes() throws -> [UInt8] {
        try decodeOption("--challenge", challenge, ignoringPaddingBits: true)
    }

    func relyingParty(trustAnchors: [AttestationFormat: [X509Certificate]] = [:]) -> RelyingParty {
        RelyingParty(
            ids: rpIDs, origins: origins, allowsCrossOrigin: allowsCrossOrigin, topOrigins: topOrigins,
            requireUserVerification: requireUserVerification,
            allowedAlgorithms: algorithms.isEmpty ? COSEAlgorithm.signatureAlgorithms : algorithms,
            trustAnchors: trustAnchors)
    }
}

/// Decodes a base64url option, naming the option in the error.
func decodeOption(_ name: String, _ text: String, ignoringPaddingBits: Bool = false) throws(WebAuthnError) -> [UInt8] {
    do {
        return try Base64URL.decode(text, ignoringPaddingBits: ignoringPaddingBits)
    } catch {
        throw WebAuthnError(.malformedEncoding, "\(name): \(error.reason)", offset: error.offset)
    }
}
