"""`passkey export` / `passkey import --cxf`: the FIDO Credential Exchange Format, sealed under a
passphrase. pyca/cryptography reads every exported PKCS#8 key as the registered public key's
private half; a passkey moved to another store signs assertions py_webauthn verifies; bad input is
one stderr line and leaves the store as it was."""

import base64
import json
import os

import webauthn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import ceremony, listed, refused, succeeded

ORIGIN, RP_ID = "https://example.org", "example.org"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def register(passkey, store, user: bytes, alg: int = -7):
    challenge = os.urandom(32)
    options = {
        "rp": {"id": RP_ID, "name": "Example"},
        "user": {"id": b64url(user), "name": user.decode(), "displayName": user.decode().title()},
        "challenge": b64url(challenge),
        "pubKeyCredParams": [{"type": "public-key", "alg": alg}],
    }
    response = succeeded(ceremony(passkey, "create", options, ORIGIN, store))
    return webauthn.verify_registration_response(
        credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    ), response


def test_a_sealed_export_moves_passkeys_to_another_store(passkey, tmp_path):
    source, destination = tmp_path / "source", tmp_path / "destination"
    registrations = [register(passkey, source, b"ada"), register(passkey, source, b"grace", alg=-8)]
    secret = tmp_path / "passphrase"
    secret.write_text("correct horse battery staple\n")
    exported = tmp_path / "export.json"
    result = passkey("export", "--store", str(source), "--passphrase-file", str(secret), "-o", str(exported))
    assert result.returncode == 0, result.stderr.decode()
    assert oct(exported.stat().st_mode & 0o777) == "0o600"
    envelope = json.loads(exported.read_bytes())
    assert envelope["format"] == "softpasskey-sealed-cxf" and envelope["scrypt"]["n"] == 32768

    result = passkey("import", "--store", str(destination), "--cxf", str(exported), "--passphrase-file", str(secret))
    assert result.returncode == 0, result.stderr.decode()
    assert len(result.stdout.decode().splitlines()) == 2

    for verified, registration in registrations:
        challenge = os.urandom(32)
        request = {"rpId": RP_ID, "challenge": b64url(challenge),
                   "allowCredentials": [{"type": "public-key", "id": registration["id"]}]}
        response = succeeded(ceremony(passkey, "get", request, ORIGIN, destination))
        webauthn.verify_authentication_response(
            credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
            credential_public_key=verified.credential_public_key, credential_current_sign_count=0,
        )


def test_the_plain_export_is_cxf_with_pkcs8_keys(passkey, tmp_path):
    store = tmp_path / "store"
    verified, registration = register(passkey, store, b"ada")
    result = passkey("export", "--store", str(store), "--insecure-plaintext")
    assert result.returncode == 0, result.stderr.decode()
    header = json.loads(result.stdout)
    assert header["version"] == {"major": 1, "minor": 0}
    (item,) = header["accounts"][0]["items"]
    (credential,) = item["credentials"]
    assert credential["type"] == "passkey"
    assert credential["credentialId"] == registration["id"]
    assert credential["rpId"] == RP_ID and b64url_decode(credential["userHandle"]) == b"ada"
    key = serialization.load_der_private_key(b64url_decode(credential["key"]), password=None)
    spki = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert spki == b64url_decode(registration["response"]["publicKey"])


def test_bad_input_is_one_line_and_changes_nothing(passkey, tmp_path, monkeypatch):
    source, destination = tmp_path / "source", tmp_path / "destination"
    register(passkey, source, b"ada")
    refused(passkey("export", "--store", str(source)), "NotAllowedError")

    monkeypatch.setenv("PASSKEY_EXPORT_PASSPHRASE", "correct horse")
    exported = tmp_path / "export.json"
    assert passkey("export", "--store", str(source), "-o", str(exported)).returncode == 0
    register(passkey, destination, b"grace")
    before = listed(passkey, destination)

    monkeypatch.setenv("PASSKEY_EXPORT_PASSPHRASE", "wrong")
    assert "wrong-passphrase" in refused(passkey("import", "--store", str(destination), "--cxf", str(exported)),
                                         "NotAllowedError")
    monkeypatch.setenv("PASSKEY_EXPORT_PASSPHRASE", "correct horse")
    truncated = tmp_path / "truncated.json"
    truncated.write_bytes(exported.read_bytes()[:100])
    assert "corrupt" in refused(passkey("import", "--store", str(destination), "--cxf", str(truncated)),
                                "NotAllowedError")
    assert passkey("import", "--store", str(destination), "--cxf", str(exported)).returncode == 0
    after_one = listed(passkey, destination)
    assert "duplicate" in refused(passkey("import", "--store", str(destination), "--cxf", str(exported)),
                                  "NotAllowedError")
    assert listed(passkey, destination) == after_one
    assert len(after_one) == len(before) + 1

    p384 = tmp_path / "p384.pem"
    p384.write_bytes(ec.generate_private_key(ec.SECP384R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    refused(passkey("import", "--store", str(destination), "--pkcs8", str(p384), "--rp-id", RP_ID), "SyntaxError",
            code=2)
    assert listed(passkey, destination) == after_one
