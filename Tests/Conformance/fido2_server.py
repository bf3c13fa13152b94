"""A FIDO2 transport-binding server (binding.py) around python-fido2's `Fido2Server` (PyPI `fido2`, the version
Tests/Interop/requirements.txt pins), unmodified, for `passkey conformance run` to check.

    python fido2_server.py [--port 0] [--rp-id localhost] [--origin ORIGIN] [--root PEM]

prints `{"url": "http://localhost:PORT"}` once listening. What is the library's and what is this wrapper's:
- origin: `Fido2Server`'s own rule (an https origin, or http on localhost, whose host is the RP ID or under it), or
  exactly `--origin` when given;
- attestation: `Fido2Server` verifies a statement only when the options asked for attestation other than "none",
  and then only with a `verify_attestation`; with `--root` it is python-fido2's `AttestationVerifier` whose
  `ca_lookup` answers the PEM's certificate, without `--root` attestation is not verified (the library's default);
- the signature counter: `Fido2Server` leaves it to the relying party ("the RP should check the counter"), so this
  wrapper refuses a counter that did not grow unless both are 0 (WebAuthn L3 §7.2 step 22), as the other servers;
- users, duplicate credential IDs, credential ownership and userHandle: binding.py, as for every server."""

import json
import os

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding
from fido2.attestation import AttestationVerifier, NoneAttestation
from fido2.attestation.base import _default_attestations
from fido2.server import Fido2Server
from fido2.webauthn import (
    AttestationConveyancePreference,
    AuthenticationResponse,
    AuthenticatorAttachment,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from binding import Credential, Failed, RelyingPartyMemory, arguments, serve, username


class TrustedRoots(AttestationVerifier):
    """python-fido2's attestation verification with the `--root` certificates as the only trust anchors."""

    def __init__(self, certificates):
        # python-fido2's default attestation types leave out "none", which a relying party may accept even when it
        # asked for attestation (WebAuthn L3 §7.1 step 23 leaves that to its policy): this one does.
        super().__init__([*_default_attestations(), NoneAttestation()])
        self.certificates = certificates

    def ca_lookup(self, attestation_result, auth_data):
        if attestation_result.trust_path:
            issuer = x509.load_der_x509_certificate(attestation_result.trust_path[-1]).issuer
            for certificate in self.certificates:
                if certificate.subject == issuer:
                    return certificate.public_bytes(Encoding.DER)
        return self.certificates[0].public_bytes(Encoding.DER)


def as_json(options) -> dict:
    """The `publicKey` member of python-fido2's options, as JSON (bytes in base64url)."""
    return json.loads(json.dumps(dict(options)["publicKey"]))


def main():
    options = arguments(__doc__.splitlines()[0])
    verifier = TrustedRoots(x509.load_pem_x509_certificates(open(options.root, "rb").read())) if options.root else None
    rp = {"id": options.rp_id, "name": "python-fido2 conformance peer"}
    verify_origin = (lambda origin: origin == options.origin) if options.origin else None
    memory = RelyingPartyMemory()

    def server(attestation=None):
        return Fido2Server(rp, attestation=attestation, verify_origin=verify_origin, verify_attestation=verifier)

    def attestation_options(body, session):
        name = username(body, required=True)
        selection = body.get("authenticatorSelection") or {}
        resident_key = selection.get("residentKey") or ("required" if selection.get("requireResidentKey") else None)
        attachment = selection.get("authenticatorAttachment")
        uv = selection.get("userVerification")
        with memory.lock:
            user = memory.user(name, body.get("displayName") or name, lambda: os.urandom(16))
            relying_party = server(AttestationConveyancePreference(body.get("attestation") or "none"))
            generated, state = relying_party.register_begin(
                {"id": user.id, "name": user.name, "displayName": user.display_name},
                credentials=[c.record for c in user.credentials.values()],
                resident_key_requirement=ResidentKeyRequirement(resident_key) if resident_key else None,
                user_verification=UserVerificationRequirement(uv) if uv else None,
                authenticator_attachment=AuthenticatorAttachment(attachment) if attachment else None,
                extensions=body.get("extensions") if isinstance(body.get("extensions"), dict) else None,
            )
            memory.begin("registration", user, (relying_party, state), session)
        return as_json(generated)

    def attestation_result(body, session):
        with memory.lock:
            user, (relying_party, state) = memory.take("registration", session)
            auth_data = relying_party.register_complete(state, body)
            memory.add(Credential(
                id=auth_data.credential_data.credential_id, owner=user, sign_count=auth_data.counter,
                record=auth_data.credential_data,
            ))
        return {}

    def assertion_options(body, session):
        name = username(body, required=False)
        uv = body.get("userVerification")
        with memory.lock:
            user = memory.known_user(name) if name else None
            generated, state = server().authenticate_begin(
                credentials=[c.record for c in user.credentials.values()] if user else None,
                user_verification=UserVerificationRequirement(uv) if uv else None,
                extensions=body.get("extensions") if isinstance(body.get("extensions"), dict) else None,
            )
            memory.begin("assertion", user, state, session)
        return as_json(generated)

    def assertion_result(body, session):
        with memory.lock:
            user, state = memory.take("assertion", session)
            credential = memory.owned_credential(user, body)
            server().authenticate_complete(state, [credential.record], body)
            counter = AuthenticationResponse.from_dict(body).response.authenticator_data.counter
            if (counter or credential.sign_count) and counter <= credential.sign_count:
                raise Failed(f"signature counter {counter} is not above the stored {credential.sign_count}")
            credential.sign_count = counter
        return {}

    serve(options, {
        "/attestation/options": attestation_options, "/attestation/result": attestation_result,
        "/assertion/options": assertion_options, "/assertion/result": assertion_result,
    })


if __name__ == "__main__":
    main()
