"""`passkey device --socket --uv auto|deny` as python-fido2 drives a key that verifies users itself
(CTAP 2.1 built-in user verification, no PIN): getInfo's `uv`, ClientPin.get_uv_token and
get_uv_retries (§6.5.5.7.3, §6.5.5.3), Fido2Client asking for user verification, the CTAP 2.0
`uv` option (§6.1.2 step 11.2), credProtect 3 (§12.1) without a PIN, the retries kept in the store
across a restart, and `--uv deny` refused. Registrations are verified by py_webauthn."""

import hashlib

import pytest
from fido2.client import ClientError, DefaultClientDataCollector, Fido2Client
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.ctap2.pin import ClientPin, PinProtocolV1, PinProtocolV2
from webauthn.helpers.structs import UserVerificationRequirement

from ctap_socket import open_device, running_device
from test_ctap_client import ORIGIN, RP_ID, authenticate, register

REQUIRED = UserVerificationRequirement.REQUIRED
CLIENT_DATA_HASH = hashlib.sha256(b"a ceremony").digest()


def make_credential(ctap, options, extensions=None):
    return ctap.make_credential(
        CLIENT_DATA_HASH, {"id": RP_ID, "name": "Example"}, {"id": b"user-ada", "name": "ada"},
        [{"type": "public-key", "alg": -7}], extensions=extensions, options=options,
    )


def get_assertion(ctap, options=None):
    return ctap.get_assertion(RP_ID, CLIENT_DATA_HASH, options=options)


@pytest.mark.parametrize("protocol", [PinProtocolV1, PinProtocolV2], ids=["protocol-1", "protocol-2"])
def test_a_uv_token_without_a_pin(tmp_path, protocol):
    with running_device(tmp_path, "--uv", "auto") as path:
        ctap = Ctap2(open_device(path))
        options = ctap.info.options
        assert options["uv"] is True and options["pinUvAuthToken"] is True and options["clientPin"] is False
        assert ctap.info.preferred_platform_uv_attempts == 3 and ctap.info.uv_modality == 4
        pin = ClientPin(ctap, protocol())
        assert pin.get_uv_retries() == 5
        token = pin.get_uv_token(ClientPin.PERMISSION.MAKE_CREDENTIAL, RP_ID)
        attestation = ctap.make_credential(
            CLIENT_DATA_HASH, {"id": RP_ID}, {"id": b"user-ada", "name": "ada"}, [{"type": "public-key", "alg": -7}],
            options={"rk": True}, pin_uv_param=pin.protocol.authenticate(token, CLIENT_DATA_HASH),
            pin_uv_protocol=pin.protocol.VERSION,
        )
        assert attestation.auth_data.is_user_verified()
        assert pin.get_uv_retries() == 5


def test_fido2_client_verifies_the_user_without_a_pin(tmp_path):
    with running_device(tmp_path, "--uv", "auto") as path:
        client = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN))
        verified, response = register(client, uv=REQUIRED)
        assert verified.user_verified
        authenticate(client, verified, uv=REQUIRED, count=verified.sign_count)
        discovered = authenticate(client, verified, allow=False, uv=REQUIRED, count=verified.sign_count + 1)
        assert discovered.raw_id == response.raw_id


def test_cred_protect_three_without_a_pin(tmp_path):
    with running_device(tmp_path, "--uv", "auto") as path:
        client = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN))
        verified, _ = register(client, uv=REQUIRED, extensions={
            "credentialProtectionPolicy": "userVerificationRequired", "enforceCredentialProtectionPolicy": True,
        })
        authenticate(client, verified, uv=REQUIRED, count=verified.sign_count)
        with pytest.raises(ClientError) as hidden:
            authenticate(client, verified)
        assert hidden.value.code == ClientError.ERR.DEVICE_INELIGIBLE

        # The CTAP 2.0 way: the uv option, no token.
        ctap = Ctap2(open_device(path))
        made = make_credential(ctap, {"rk": True, "uv": True}, extensions={"credProtect": 3})
        assert made.auth_data.is_user_verified() and made.auth_data.extensions["credProtect"] == 3
        with pytest.raises(CtapError) as unverified:
            get_assertion(ctap)
        assert unverified.value.code == CtapError.ERR.NO_CREDENTIALS
        assertion = get_assertion(ctap, {"uv": True})
        assert assertion.auth_data.is_user_verified() and assertion.user["id"] == b"user-ada"


def test_the_uv_option_and_a_discoverable_credential(tmp_path):
    with running_device(tmp_path, "--uv", "auto") as path:
        ctap = Ctap2(open_device(path))
        # A discoverable credential needs user verification (§6.1.2 step 7): no PIN to ask for.
        with pytest.raises(CtapError) as denied:
            make_credential(ctap, {"rk": True})
        assert denied.value.code == CtapError.ERR.OPERATION_DENIED
        assert not make_credential(ctap, {"rk": False}).auth_data.is_user_verified()
        assert make_credential(ctap, {"rk": True, "uv": True}).auth_data.is_user_verified()


def test_deny_is_refused_counted_and_kept_across_a_restart(tmp_path):
    store = tmp_path / "store"
    with running_device(tmp_path, "--uv", "deny", store=store) as path:
        ctap = Ctap2(open_device(path))
        pin = ClientPin(ctap)
        with pytest.raises(CtapError) as invalid:
            pin.get_uv_token(ClientPin.PERMISSION.GET_ASSERTION, RP_ID)
        assert invalid.value.code == CtapError.ERR.UV_INVALID
        with pytest.raises(CtapError) as denied:
            make_credential(ctap, {"rk": True, "uv": True})
        assert denied.value.code == CtapError.ERR.OPERATION_DENIED
        assert pin.get_uv_retries() == 3
        client = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN))
        with pytest.raises(ClientError):
            register(client, uv=REQUIRED)
        assert pin.get_uv_retries() == 2
    with running_device(tmp_path, "--uv", "deny", store=store) as path:
        pin = ClientPin(Ctap2(open_device(path)))
        assert pin.get_uv_retries() == 2
        for code in (CtapError.ERR.UV_INVALID, CtapError.ERR.UV_BLOCKED, CtapError.ERR.UV_BLOCKED):
            with pytest.raises(CtapError) as refused:
                pin.get_uv_token(ClientPin.PERMISSION.GET_ASSERTION, RP_ID)
            assert refused.value.code == code
        assert pin.get_uv_retries() == 0
    with running_device(tmp_path, store=store) as path:
        ctap = Ctap2(open_device(path))
        assert "uv" not in ctap.info.options, "without --uv the device has no built-in UV"
