"""A FIDO2 transport-binding server (binding.py) around py_webauthn (PyPI `webauthn`, the version
Tests/Interop/requirements.txt pins), unmodified: `passkey conformance run` checks it, and with `--defect NAME`
one of its checks switched off, so the runner is seen to fail a server that lacks that check.

    python pywebauthn_server.py [--port 0] [--rp-id localhost] [--origin ORIGIN] [--root PEM] [--defect NAME]

prints `{"url": "http://localhost:PORT"}` once listening. `--root` trusts the PEM's certificates for every
attestation format with a chain (`pem_root_certs_bytes_by_fmt`); without it py_webauthn accepts any chain.

The defects leave py_webauthn's files alone and change, in this process only, the one value or function a check
uses (WebAuthn L3 §7.1 registration, §7.2 assertion steps):
    no-signature-check  the assertion signature is not verified (§7.2 step 21): `verify_signature` of the
                        assertion module does nothing (attestation signatures are still verified)
    no-origin-check     the expected origin is whatever clientDataJSON says (§7.1 step 9, §7.2 step 13)
    no-challenge-check  the expected challenge is whatever clientDataJSON says (§7.1 step 8, §7.2 step 12); the
                        pending challenge is still consumed
    no-rpid-check       rpIdHash compares equal to the RP ID's hash whatever it is (§7.1 step 13, §7.2 step 15)
    no-counter-check    the stored signature counter is given as 0, so no regression is seen (§7.2 step 22)
    no-up-check         the UP flag is not required (§7.1 step 14, §7.2 step 16)
    any-attestation     every format's statement verification answers true (§7.1 step 21)"""

import importlib
import json
import os

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AttestationFormat,
    AuthenticatorAttachment,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from binding import Credential, Failed, RelyingPartyMemory, arguments, from_b64url, serve, username

DEFECTS = (
    "no-signature-check", "no-origin-check", "no-challenge-check", "no-rpid-check", "no-counter-check",
    "no-up-check", "any-attestation",
)
REGISTRATION = importlib.import_module("webauthn.registration.verify_registration_response")
AUTHENTICATION = importlib.import_module("webauthn.authentication.verify_authentication_response")


class AnyHash(bytes):
    """The rpIdHash under no-rpid-check: its bytes are the authenticator's (fido-u2f signs them), yet it equals any
    expected hash."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = bytes.__hash__


def switch_off(defect):
    """Applies `defect` to py_webauthn's modules in this process (see the module's comment)."""
    if defect == "no-signature-check":
        AUTHENTICATION.verify_signature = lambda **_: None
    elif defect == "no-rpid-check":
        parse_attestation_object = REGISTRATION.parse_attestation_object
        parse_authenticator_data = AUTHENTICATION.parse_authenticator_data

        def attestation_object(data):
            parsed = parse_attestation_object(data)
            parsed.auth_data.rp_id_hash = AnyHash(parsed.auth_data.rp_id_hash)
            return parsed

        def authenticator_data(data):
            parsed = parse_authenticator_data(data)
            parsed.rp_id_hash = AnyHash(parsed.rp_id_hash)
            return parsed

        REGISTRATION.parse_attestation_object = attestation_object
        AUTHENTICATION.parse_authenticator_data = authenticator_data
    elif defect == "no-up-check":  # registration: require_user_presence=False (below)
        parse_authenticator_data = AUTHENTICATION.parse_authenticator_data

        def present(data):
            parsed = parse_authenticator_data(data)
            parsed.flags.up = True  # the signed bytes are the raw ones, so only the UP check sees this
            return parsed

        AUTHENTICATION.parse_authenticator_data = present
    elif defect == "any-attestation":
        for name in ("packed", "fido_u2f", "tpm", "apple", "android_key", "android_safetynet"):
            setattr(REGISTRATION, f"verify_{name}", lambda **_: True)


def client_data(body: dict) -> dict:
    """clientDataJSON as the client sent it ({} when it is not a JSON object)."""
    try:
        data = json.loads(from_b64url(body["response"]["clientDataJSON"]))
        return data if isinstance(data, dict) else {}
    except Exception:
        return {}


def main():
    options = arguments(__doc__.splitlines()[0], DEFECTS)
    defect = options.defect
    switch_off(defect)
    roots = None
    if options.root:
        text = open(options.root, "rb").read()
        marker = b"-----END CERTIFICATE-----"
        certificates = [part.strip() + b"\n" + marker + b"\n" for part in text.split(marker) if part.strip()]
        roots = {format: certificates for format in AttestationFormat if format != AttestationFormat.NONE}
    memory = RelyingPartyMemory()
    expected = {}

    def expected_origin(body):
        if defect == "no-origin-check":
            return client_data(body).get("origin", expected["origin"])
        return expected["origin"]

    def expected_challenge(body, challenge):
        if defect == "no-challenge-check":
            try:
                return from_b64url(client_data(body)["challenge"])
            except Exception:
                return challenge
        return challenge

    def attestation_options(body, session):
        name = username(body, required=True)
        selection = body.get("authenticatorSelection") or {}
        uv = UserVerificationRequirement(selection.get("userVerification", "preferred"))
        criteria = AuthenticatorSelectionCriteria(
            authenticator_attachment=AuthenticatorAttachment(selection["authenticatorAttachment"])
            if "authenticatorAttachment" in selection else None,
            resident_key=ResidentKeyRequirement(selection["residentKey"]) if "residentKey" in selection else None,
            require_resident_key=bool(selection.get("requireResidentKey", False)),
            user_verification=uv,
        )
        with memory.lock:
            user = memory.user(name, body.get("displayName") or name, lambda: os.urandom(16))
            generated = generate_registration_options(
                rp_id=options.rp_id, rp_name="py_webauthn conformance peer", user_name=user.name, user_id=user.id,
                user_display_name=user.display_name,
                attestation=AttestationConveyancePreference(body.get("attestation") or "none"),
                authenticator_selection=criteria,
                exclude_credentials=[PublicKeyCredentialDescriptor(id=c.id) for c in user.credentials.values()],
            )
            required = uv == UserVerificationRequirement.REQUIRED
            memory.begin("registration", user, (generated.challenge, required), session)
        answer = json.loads(options_to_json(generated))
        if isinstance(body.get("extensions"), dict):  # py_webauthn has no extensions input: echoed
            answer["extensions"] = body["extensions"]
        return answer

    def attestation_result(body, session):
        with memory.lock:
            user, (challenge, uv_required) = memory.take("registration", session)
            verified = verify_registration_response(
                credential=body, expected_challenge=expected_challenge(body, challenge),
                expected_rp_id=options.rp_id, expected_origin=expected_origin(body),
                require_user_presence=defect != "no-up-check", require_user_verification=uv_required,
                pem_root_certs_bytes_by_fmt=roots,
            )
            memory.add(Credential(
                id=verified.credential_id, owner=user, sign_count=verified.sign_count,
                record=verified.credential_public_key,
            ))
        return {}

    def assertion_options(body, session):
        name = username(body, required=False)
        uv = UserVerificationRequirement(body.get("userVerification") or "preferred")
        with memory.lock:
            user = memory.known_user(name) if name else None
            generated = generate_authentication_options(
                rp_id=options.rp_id, user_verification=uv,
                allow_credentials=[PublicKeyCredentialDescriptor(id=c.id) for c in user.credentials.values()]
                if user else [],
            )
            required = uv == UserVerificationRequirement.REQUIRED
            memory.begin("assertion", user, (generated.challenge, required), session)
        answer = json.loads(options_to_json(generated))
        if isinstance(body.get("extensions"), dict):
            answer["extensions"] = body["extensions"]
        return answer

    def assertion_result(body, session):
        with memory.lock:
            user, (challenge, uv_required) = memory.take("assertion", session)
            credential = memory.owned_credential(user, body)
            verified = verify_authentication_response(
                credential=body, expected_challenge=expected_challenge(body, challenge),
                expected_rp_id=options.rp_id, expected_origin=expected_origin(body),
                credential_public_key=credential.record,
                credential_current_sign_count=0 if defect == "no-counter-check" else credential.sign_count,
                require_user_verification=uv_required,
            )
            credential.sign_count = verified.new_sign_count
        return {}

    serve(options, {
        "/attestation/options": attestation_options, "/attestation/result": attestation_result,
        "/assertion/options": assertion_options, "/assertion/result": assertion_result,
    }, on_start=lambda origin: expected.update(origin=origin))


if __name__ == "__main__":
    main()
