"""U2F (CTAP1) on `passkey device --socket`: python-fido2's `Ctap1`, unmodified, sends the APDUs of
FIDO U2F Raw Message Formats v1.2 in CTAPHID_MSG (CTAP 2.1 §11.2.9.1.1); the registration becomes
WebAuthn's `fido-u2f` attestation (L3 §8.6) that py_webauthn verifies, and the U2F credential signs
CTAP2 assertions for its RP ID (CTAP 2.1 §10)."""

import base64
import hashlib
import json
import os
import struct

import pytest
import webauthn
from fido2.cose import ES256
from fido2.ctap1 import APDU, ApduError, Ctap1, SignatureData
from fido2.ctap2 import Ctap2
from fido2.hid import CAPABILITY
from fido2.webauthn import AttestationObject

from ctap_socket import open_device, running_device
from test_ctap_device import device_socket  # noqa: F401 (the fixture: a device over a fresh store)

RP_ID = "example.org"
ORIGIN = "https://example.org"
APP_PARAM = hashlib.sha256(RP_ID.encode()).digest()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def test_ctap1_registers_authenticates_in_each_mode_and_versions(device_socket):
    hid = open_device(device_socket)
    assert not hid.capabilities & CAPABILITY.NMSG, "the device speaks U2F"
    ctap1 = Ctap1(hid)
    assert ctap1.get_version() == "U2F_V2"

    client_param = hashlib.sha256(b"registration").digest()
    registration = ctap1.register(client_param, APP_PARAM)
    registration.verify(APP_PARAM, client_param)
    assert registration.public_key[0] == 0x04 and len(registration.public_key) == 65

    challenge = hashlib.sha256(b"authentication").digest()
    # Check-only: this key handle is ours for this application (0x6985), another is not (0x6A80),
    # and ours is not for another application.
    with pytest.raises(ApduError) as ours:
        ctap1.authenticate(challenge, APP_PARAM, registration.key_handle, check_only=True)
    assert ours.value.code == APDU.USE_NOT_SATISFIED
    with pytest.raises(ApduError) as foreign:
        ctap1.authenticate(challenge, APP_PARAM, b"\x01" * 32, check_only=True)
    assert foreign.value.code == APDU.WRONG_DATA
    other_app = hashlib.sha256(b"other.example").digest()
    with pytest.raises(ApduError) as elsewhere:
        ctap1.authenticate(challenge, other_app, registration.key_handle)
    assert elsewhere.value.code == APDU.WRONG_DATA

    # Enforce user presence and sign (P1 0x03): UP set, the counter advancing.
    first = ctap1.authenticate(challenge, APP_PARAM, registration.key_handle)
    first.verify(APP_PARAM, challenge, registration.public_key)
    assert first.user_presence == 0x01
    second = ctap1.authenticate(challenge, APP_PARAM, registration.key_handle)
    second.verify(APP_PARAM, challenge, registration.public_key)
    assert second.counter > first.counter

    # Don't enforce user presence (P1 0x08, CTAP 2.1 §11.2.9.1.1), through Ctap1's own APDU sender.
    data = challenge + APP_PARAM + struct.pack(">B", len(registration.key_handle)) + registration.key_handle
    silent = SignatureData(ctap1.send_apdu(ins=Ctap1.INS.AUTHENTICATE, p1=0x08, data=data))
    silent.verify(APP_PARAM, challenge, registration.public_key)
    assert silent.user_presence == 0x00 and silent.counter > second.counter

    # Malformed: a wrong class, an unknown instruction, a short register.
    for cla, ins, body, code in ((0x80, 0x03, b"", 0x6E00), (0, 0x04, b"", 0x6D00), (0, 0x01, b"\0" * 63, 0x6700)):
        with pytest.raises(ApduError) as refused:
            ctap1.send_apdu(cla=cla, ins=ins, data=body)
        assert refused.value.code == code


def test_a_u2f_registration_is_a_fido_u2f_attestation_py_webauthn_verifies(device_socket):
    ctap1 = Ctap1(open_device(device_socket))
    challenge = os.urandom(32)
    client_data = json.dumps(
        {"type": "webauthn.create", "challenge": b64url(challenge), "origin": ORIGIN, "crossOrigin": False}
    ).encode()
    registration = ctap1.register(hashlib.sha256(client_data).digest(), APP_PARAM)
    attestation = AttestationObject.from_ctap1(APP_PARAM, registration)
    assert attestation.fmt == "fido-u2f"
    credential = {
        "id": b64url(registration.key_handle), "rawId": b64url(registration.key_handle), "type": "public-key",
        "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(bytes(attestation))},
    }
    verified = webauthn.verify_registration_response(
        credential=credential, expected_challenge=challenge, expected_rp_id=RP_ID, expected_origin=ORIGIN
    )
    assert verified.fmt == "fido-u2f"
    assert verified.credential_id == registration.key_handle


def test_presence_denied_is_conditions_not_satisfied(tmp_path):
    with running_device(tmp_path, "--presence", "deny") as path:
        ctap1 = Ctap1(open_device(path))
        with pytest.raises(ApduError) as refused:
            ctap1.register(hashlib.sha256(b"c").digest(), APP_PARAM)
        assert refused.value.code == APDU.USE_NOT_SATISFIED


def test_ctap2_get_assertion_uses_a_u2f_credential(device_socket):
    hid = open_device(device_socket)
    ctap2 = Ctap2(hid)
    assert ctap2.info.versions[0] == "U2F_V2" and "FIDO_2_0" in ctap2.info.versions
    registration = Ctap1(hid).register(hashlib.sha256(b"registration").digest(), APP_PARAM)
    challenge = hashlib.sha256(b"authentication").digest()
    allow = [{"type": "public-key", "id": os.urandom(16)}, {"type": "public-key", "id": registration.key_handle}]
    assertion = ctap2.get_assertion(RP_ID, challenge, allow)
    assertion.verify(challenge, ES256.from_ctap1(registration.public_key))
    assert assertion.credential["id"] == registration.key_handle
    assert assertion.auth_data.rp_id_hash == APP_PARAM and assertion.auth_data.is_user_present()
