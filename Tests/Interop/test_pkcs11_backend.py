"""The pkcs11 backend as independent relying parties see it: passkeys whose private keys a SoftHSM2
token holds (`passkey create/get --backend pkcs11`, and `passkey serve` with the token), registered
and asserted, verified by py_webauthn and python-fido2; the key is not extractable (pkcs11-tool
cannot read it); a wrong PIN, a missing module or token, a key gone from the token is one stderr
line, and the store loses nothing."""

import base64
import hashlib
import json
import os
import shutil
import subprocess
import urllib.request

import pytest
import webauthn
from fido2.cose import CoseKey
from fido2.webauthn import AttestationObject, AuthenticatorData

from conftest import ceremony, listed, passkey_binary, refused, succeeded

MODULE = os.environ.get("PASSKEY_PKCS11_MODULE", "/usr/lib/softhsm/libsofthsm2.so")
ORIGIN, RP_ID = "https://example.org", "example.org"

pytestmark = pytest.mark.skipif(shutil.which("softhsm2-util") is None, reason="softhsm2 is not installed")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def hsm(tmp_path):
    """A SoftHSM2 token of its own and the environment that points the CLI at it."""
    (tmp_path / "tokens").mkdir()
    conf = tmp_path / "softhsm2.conf"
    conf.write_text(f"directories.tokendir = {tmp_path}/tokens\nobjectstore.backend = file\nlog.level = ERROR\n")
    env = {**os.environ, "SOFTHSM2_CONF": str(conf)}
    subprocess.run(["softhsm2-util", "--init-token", "--free", "--label", "interop", "--pin", "4321",
                    "--so-pin", "87654321"], env=env, check=True, capture_output=True)
    env.update(PASSKEY_PKCS11_MODULE=MODULE, PASSKEY_PKCS11_TOKEN="interop", PASSKEY_PKCS11_PIN="4321",
               PASSKEY_BACKEND="pkcs11")

    def run(*args, input=None, **overrides):
        return subprocess.run([passkey_binary(), *args], input=input, capture_output=True, timeout=60,
                              env={**env, **overrides})

    run.env = env
    return run


@pytest.mark.parametrize("alg", [-7, -8])
def test_token_keys_register_and_sign(hsm, tmp_path, alg):
    store = tmp_path / "store"
    challenge = os.urandom(32)
    options = {
        "rp": {"id": RP_ID, "name": "Example"},
        "user": {"id": b64url(b"ada"), "name": "ada", "displayName": "Ada"},
        "challenge": b64url(challenge),
        "pubKeyCredParams": [{"type": "public-key", "alg": alg}],
        "authenticatorSelection": {"residentKey": "required"},
        "attestation": "direct",
    }
    response = succeeded(ceremony(hsm, "create", options, ORIGIN, store, "--profile", "security-key"))
    verified = webauthn.verify_registration_response(
        credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    )
    assert verified.fmt == "packed"
    attestation = AttestationObject(b64url_decode(response["response"]["attestationObject"]))
    credential = attestation.auth_data.credential_data
    assert CoseKey.parse(dict(credential.public_key)).ALGORITHM == alg

    count = verified.sign_count
    for _ in range(2):
        challenge = os.urandom(32)
        assertion = succeeded(ceremony(hsm, "get", {"rpId": RP_ID, "challenge": b64url(challenge)}, ORIGIN, store))
        checked = webauthn.verify_authentication_response(
            credential=assertion, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            credential_public_key=verified.credential_public_key, credential_current_sign_count=count,
        )
        count = checked.new_sign_count
        data = AuthenticatorData(b64url_decode(assertion["response"]["authenticatorData"]))
        client_data_hash = hashlib.sha256(b64url_decode(assertion["response"]["clientDataJSON"])).digest()
        credential.public_key.verify(bytes(data) + client_data_hash, b64url_decode(assertion["response"]["signature"]))
    assert count == 2

    if shutil.which("pkcs11-tool"):  # OpenSC's view of the token: the key is there, and can never leave
        listed = subprocess.run(
            ["pkcs11-tool", "--module", MODULE, "--token-label", "interop", "--login", "--pin", "4321",
             "--list-objects", "--type", "privkey"], env=hsm.env, capture_output=True, text=True, check=True).stdout
        entry = listed.split("ID:")[1]
        assert entry.split()[0] == b64url_decode(response["id"]).hex()
        assert "sensitive, always sensitive, never extractable, local" in entry


def token_objects(hsm, kind: str) -> str:
    """pkcs11-tool's listing of the token's objects of one kind."""
    return subprocess.run(
        ["pkcs11-tool", "--module", MODULE, "--token-label", "interop", "--login", "--pin", "4321",
         "--list-objects", "--type", kind], env=hsm.env, capture_output=True, text=True, check=True).stdout


def registration_options(challenge: bytes, name: str) -> dict:
    return {
        "rp": {"id": RP_ID, "name": "Example"},
        "user": {"id": b64url(name.encode()), "name": name, "displayName": name.title()},
        "challenge": b64url(challenge),
        "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
        "authenticatorSelection": {"residentKey": "required"},
    }


@pytest.mark.skipif(shutil.which("pkcs11-tool") is None, reason="opensc is not installed")
def test_serve_keeps_the_keys_of_file_store_passkeys_in_the_token(hsm, tmp_path):
    server = subprocess.Popen([passkey_binary(), "serve", "--json"], env=hsm.env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        start = json.loads(server.stdout.readline())

        def call(path, body=None):
            request = urllib.request.Request(
                start["url"] + path, data=json.dumps(body or {}).encode(), method="POST",
                headers={"Authorization": f"Bearer {start['token']}", "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read())["value"]

        session = call("/session")["sessionId"]
        authenticator = call(f"/session/{session}/webauthn/authenticator", {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True, "softpasskey:store": str(tmp_path / "store")})
        path = f"/session/{session}/webauthn/authenticator/{authenticator}"
        challenge = os.urandom(32)
        response = call(path + "/create", {"origin": ORIGIN, "options": registration_options(challenge, "grace")})
        verified = webauthn.verify_registration_response(
            credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN)
        challenge = os.urandom(32)
        assertion = call(path + "/get", {"origin": ORIGIN, "options": {"rpId": RP_ID, "challenge": b64url(challenge)}})
        webauthn.verify_authentication_response(
            credential=assertion, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            credential_public_key=verified.credential_public_key, credential_current_sign_count=0)
    finally:
        server.send_signal(2)
        assert server.wait(timeout=10) == 0
    assert b64url_decode(response["id"]).hex() in token_objects(hsm, "privkey")
    # The same store, opened by the CLI with the same token, holds the passkey.
    assert [entry["id"] for entry in listed(hsm, tmp_path / "store")] == [response["id"]]


@pytest.mark.skipif(shutil.which("pkcs11-tool") is None, reason="opensc is not installed")
def test_a_key_gone_from_the_token_is_one_line_and_the_record_stays(hsm, tmp_path):
    store = tmp_path / "store"
    response = succeeded(ceremony(hsm, "create", registration_options(os.urandom(32), "alan"), ORIGIN, store))
    key_id = b64url_decode(response["id"]).hex()
    for kind in ("privkey", "pubkey"):
        subprocess.run(["pkcs11-tool", "--module", MODULE, "--token-label", "interop", "--login", "--pin", "4321",
                        "--delete-object", "--type", kind, "--id", key_id], env=hsm.env, check=True,
                       capture_output=True)
    request = {"rpId": RP_ID, "challenge": b64url(os.urandom(32))}
    line = refused(ceremony(hsm, "get", request, ORIGIN, store), "NotAllowedError")
    assert "token" in line and "interop" in line
    assert [entry["id"] for entry in listed(hsm, store)] == [response["id"]]


def test_token_failures_are_one_line(hsm, tmp_path):
    store = tmp_path / "store"
    request = {"rpId": RP_ID, "challenge": b64url(os.urandom(32))}
    line = refused(hsm("get", "--origin", ORIGIN, "--store", str(store), input=json.dumps(request).encode(),
                       PASSKEY_PKCS11_PIN="0000"), "NotAllowedError")
    assert "wrong-pin" in line and "0000" not in line
    line = refused(hsm("get", "--origin", ORIGIN, "--store", str(store), input=json.dumps(request).encode(),
                       PASSKEY_PKCS11_MODULE="/nonexistent/module.so"), "NotAllowedError")
    assert "module-unavailable" in line
    line = refused(hsm("list", "--store", str(store), PASSKEY_PKCS11_TOKEN="absent"), "NotAllowedError")
    assert "token-not-found" in line
