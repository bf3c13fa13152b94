"""The CTAP authenticator extensions as independent relying parties see them: py_webauthn verifies
registrations and assertions that carry extension outputs (the ED flag), python-fido2 decodes those
outputs from the authenticator data: credProtect (CTAP 2.1 §12.1), credBlob (§12.2), minPinLength
(§12.4), hmac-secret and hmac-secret-mc for prf at creation (CTAP 2.2 §12.7)."""

import base64
import hashlib
import os

import cbor2
import webauthn
from fido2.webauthn import AttestationObject, AuthenticatorData

from conftest import b64url, ceremony, creation_options, refused, succeeded

ORIGIN, RP_ID = "https://example.org", "example.org"


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def register(passkey, store, extensions, uv="preferred"):
    challenge = os.urandom(32)
    options = creation_options(
        challenge, authenticatorSelection={"residentKey": "required", "userVerification": uv}, extensions=extensions
    )
    response = succeeded(ceremony(passkey, "create", options, ORIGIN, store, "--profile", "security-key"))
    verified = webauthn.verify_registration_response(
        credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    )
    auth_data = AttestationObject(b64url_decode(response["response"]["attestationObject"])).auth_data
    return response, verified, auth_data.extensions or {}


def authenticate(passkey, store, verified, *, uv="preferred", allow=None, extensions=None, count=0):
    challenge = os.urandom(32)
    request = {"rpId": RP_ID, "challenge": b64url(challenge), "userVerification": uv}
    if allow:
        request["allowCredentials"] = [{"type": "public-key", "id": allow}]
    if extensions:
        request["extensions"] = extensions
    result = ceremony(passkey, "get", request, ORIGIN, store, "--profile", "security-key")
    if result.returncode != 0:
        return result, None
    response = succeeded(result)
    webauthn.verify_authentication_response(
        credential=response, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN,
        credential_public_key=verified.credential_public_key, credential_current_sign_count=count,
    )
    return response, AuthenticatorData(b64url_decode(response["response"]["authenticatorData"])).extensions or {}


def test_cred_protect_level_three_needs_user_verification(passkey, tmp_path):
    store = tmp_path / "store"
    response, verified, outputs = register(
        passkey, store, {"credentialProtectionPolicy": "userVerificationRequired",
                         "enforceCredentialProtectionPolicy": True})
    assert outputs["credProtect"] == 3
    result, _ = authenticate(passkey, store, verified, uv="discouraged")
    refused(result, "NotAllowedError")
    _, outputs = authenticate(passkey, store, verified, uv="required")
    assert outputs == {}


def test_cred_protect_level_two_needs_an_allow_list_without_uv(passkey, tmp_path):
    store = tmp_path / "store"
    response, verified, outputs = register(
        passkey, store, {"credentialProtectionPolicy": "userVerificationOptionalWithCredentialIDList"})
    assert outputs["credProtect"] == 2
    result, _ = authenticate(passkey, store, verified, uv="discouraged")
    refused(result, "NotAllowedError")
    authenticate(passkey, store, verified, uv="discouraged", allow=response["id"])


def test_cred_blob_is_stored_and_read_back(passkey, tmp_path):
    store = tmp_path / "store"
    blob = os.urandom(32)
    response, verified, outputs = register(passkey, store, {"credBlob": b64url(blob), "minPinLength": True})
    assert outputs["credBlob"] is True
    assert outputs["minPinLength"] == 4
    assert response["clientExtensionResults"]["credBlob"] is True
    assertion, outputs = authenticate(passkey, store, verified, extensions={"getCredBlob": True})
    assert outputs["credBlob"] == blob
    assert b64url_decode(assertion["clientExtensionResults"]["getCredBlob"]) == blob

    _, _, outputs = register(passkey, tmp_path / "other", {"credBlob": b64url(os.urandom(33))})
    assert outputs["credBlob"] is False


def test_prf_at_creation_matches_the_assertion(passkey, tmp_path):
    store = tmp_path / "store"
    prf = {"eval": {"first": b64url(b"salt one"), "second": b64url(b"salt two")}}
    response, verified, outputs = register(passkey, store, {"prf": prf}, uv="required")
    assert outputs["hmac-secret"] is True
    created = response["clientExtensionResults"]["prf"]
    assert created["enabled"] is True
    assertion, outputs = authenticate(passkey, store, verified, uv="required", extensions={"prf": prf})
    assert "hmac-secret" in outputs
    assert assertion["clientExtensionResults"]["prf"]["results"] == created["results"]
    assert len(b64url_decode(created["results"]["first"])) == 32
    assert created["results"]["first"] != created["results"]["second"]


def test_large_blob_written_and_read_through_the_cli(passkey, tmp_path):
    store = tmp_path / "store"
    response, verified, _ = register(passkey, store, {"largeBlob": {"support": "required"}})
    assert response["clientExtensionResults"]["largeBlob"] == {"supported": True}
    blob = os.urandom(200)
    written, _ = authenticate(passkey, store, verified, allow=response["id"],
                              extensions={"largeBlob": {"write": b64url(blob)}})
    assert written["clientExtensionResults"]["largeBlob"] == {"written": True}
    read, _ = authenticate(passkey, store, verified, allow=response["id"], extensions={"largeBlob": {"read": True}})
    assert b64url_decode(read["clientExtensionResults"]["largeBlob"]["blob"]) == blob
    array = (store / "largeblobs.bin").read_bytes()
    assert blob not in array
    assert hashlib.sha256(array[:-16]).digest()[:16] == array[-16:], "CTAP 2.1 §6.10.2 trailer"
    (entry,) = cbor2.loads(array[:-16])
    assert set(entry) == {1, 2, 3} and len(entry[2]) == 12 and entry[3] == len(blob)
    too_large, _ = authenticate(passkey, store, verified, allow=response["id"],
                                extensions={"largeBlob": {"write": b64url(os.urandom(5000))}})
    assert too_large["clientExtensionResults"]["largeBlob"] == {"written": False}
    assert (store / "largeblobs.bin").read_bytes() == array
