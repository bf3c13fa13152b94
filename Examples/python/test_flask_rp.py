"""A relying party built on py_webauthn registers and logs in a virtual authenticator of
`passkey serve`, as a browser test would, with no browser."""

import pytest
import requests

from passkey_serve import PasskeyServeError
from rp_app import ORIGIN


def register(rp, authenticator, username):
    options = rp.post("/register/options", json={"username": username}).get_json()
    registration = authenticator.create(ORIGIN, options)
    assert rp.post("/register/verify", json=registration).get_json() == {"verified": True}
    return registration


def test_register_then_log_in_with_a_discoverable_passkey(rp, authenticator):
    registration = register(rp, authenticator, "ada")
    options = rp.post("/login/options", json={}).get_json()
    assertion = authenticator.get(ORIGIN, options)
    assert assertion["id"] == registration["id"]
    first = rp.post("/login/verify", json=assertion).get_json()
    assert first["username"] == "ada"

    options = rp.post("/login/options", json={"username": "ada"}).get_json()
    second = rp.post("/login/verify", json=authenticator.get(ORIGIN, options)).get_json()
    assert second["signCount"] > first["signCount"], "the virtual authenticator counts signatures"
    assert [c["credentialId"] for c in authenticator.credentials()] == [registration["id"]]


def test_a_second_registration_of_the_same_user_is_excluded(rp, authenticator):
    register(rp, authenticator, "grace")
    options = rp.post("/register/options", json={"username": "grace"}).get_json()
    with pytest.raises(PasskeyServeError) as refused:
        authenticator.create(ORIGIN, options)
    assert refused.value.error == "InvalidStateError"


def test_a_failed_user_verification_is_refused_and_the_rp_never_sees_a_response(rp, authenticator):
    register(rp, authenticator, "linus")
    authenticator.set_user_verified(False)
    with pytest.raises(PasskeyServeError) as refused:
        authenticator.get(ORIGIN, rp.post("/login/options", json={}).get_json())
    assert (refused.value.status, refused.value.error) == (400, "NotAllowedError")


def test_a_phishing_origin_is_a_security_error(rp, authenticator):
    register(rp, authenticator, "eve")
    with pytest.raises(PasskeyServeError) as refused:
        authenticator.get("https://login.evil.example", rp.post("/login/options", json={}).get_json())
    assert (refused.value.status, refused.value.error) == (400, "SecurityError")


def test_without_the_token_every_request_is_401(passkey_server):
    answer = requests.post(passkey_server.url + "/session")
    assert answer.status_code == 401
    assert answer.json()["value"]["error"] == "unauthorized"
