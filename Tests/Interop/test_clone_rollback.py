"""`passkey set` and `passkey clone` act out a rolled-back and a cloned security key; py_webauthn, an
independent verifier, catches both by the signature counter (WebAuthn L3 §6.1.1)."""

import os

import pytest
import webauthn
from webauthn.helpers.exceptions import InvalidAuthenticationResponse

from conftest import b64url, ceremony, creation_options, refused, succeeded

ORIGIN, RP_ID = "https://example.org", "example.org"


def test_a_rolled_back_or_cloned_key_is_caught_by_its_counter(passkey, tmp_path):
    original, clone = tmp_path / "original", tmp_path / "clone"
    challenge = os.urandom(32)
    creation = creation_options(challenge, authenticatorSelection={"residentKey": "required"})
    registration = succeeded(ceremony(passkey, "create", creation, ORIGIN, original, "--profile", "security-key"))
    verified = webauthn.verify_registration_response(
        credential=registration, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    )
    state = {"count": verified.sign_count}

    def log_in(store):
        challenge = os.urandom(32)
        response = succeeded(ceremony(passkey, "get", {"rpId": RP_ID, "challenge": b64url(challenge)}, ORIGIN, store))
        new = webauthn.verify_authentication_response(
            credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            credential_public_key=verified.credential_public_key, credential_current_sign_count=state["count"],
        ).new_sign_count
        state["count"] = new

    log_in(original)
    result = passkey("clone", "--store", str(original), "--to", str(clone), "--", registration["id"])
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout.decode().startswith(f"cloned {registration['id']} to {clone}")
    log_in(original)
    with pytest.raises(InvalidAuthenticationResponse):
        log_in(clone)  # the clone's counter is the one the original had: not above the last seen

    result = passkey("set", "--store", str(original), "--sign-count", "0", "--", registration["id"])
    assert result.returncode == 0, result.stderr.decode()
    with pytest.raises(InvalidAuthenticationResponse):
        log_in(original)
    assert passkey("set", "--store", str(original), "--sign-count", "100", "--", registration["id"]).returncode == 0
    log_in(original)
    assert state["count"] == 101


def test_set_and_clone_refuse_what_is_not_there(passkey, tmp_path):
    refused(passkey("set", "AAAA", "--store", str(tmp_path / "s"), "--sign-count", "1"), "NotAllowedError")
    refused(passkey("set", "!!", "--store", str(tmp_path / "s"), "--sign-count", "1"), "SyntaxError", code=2)
    refused(passkey("clone", "AAAA", "--store", str(tmp_path / "s"), "--to", str(tmp_path / "t")), "NotAllowedError")
    result = passkey("set", "AAAA", "--store", str(tmp_path / "s"))
    assert result.returncode == 64 and b"--sign-count" in result.stderr
