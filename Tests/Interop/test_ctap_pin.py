"""`passkey device --socket` with a PIN, as python-fido2 drives a CTAP 2.1 key: ClientPIN over both
PIN/UV auth protocols (CTAP 2.1 §6.5), the retry counter and its blocks, Fido2Client asking for the
PIN, registrations verified by py_webauthn. Power cycles are process restarts on the same store."""

import hashlib

import pytest
from fido2.client import ClientError, DefaultClientDataCollector, Fido2Client, UserInteraction
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.ctap2.pin import ClientPin, PinProtocolV1, PinProtocolV2
from fido2.webauthn import AuthenticatorData

from ctap_socket import open_device, running_device
from test_ctap_client import ORIGIN, RP_ID, authenticate, register

PIN = "correct horse"
PROTOCOLS = [PinProtocolV1, PinProtocolV2]
MC_GA = ClientPin.PERMISSION.MAKE_CREDENTIAL | ClientPin.PERMISSION.GET_ASSERTION


class TypesPin(UserInteraction):
    """The user at the client's PIN prompt."""

    def __init__(self, pin):
        self.pin = pin

    def request_pin(self, permissions, rd_id):
        return self.pin


def make_credential(ctap, token=None, protocol=None, rk=True):
    client_data_hash = hashlib.sha256(b"registration").digest()
    pin_uv_param = protocol.authenticate(token, client_data_hash) if token else None
    return ctap.make_credential(
        client_data_hash, {"id": RP_ID, "name": "Example"}, {"id": b"user-ada", "name": "ada"},
        [{"type": "public-key", "alg": -7}], options={"rk": rk}, pin_uv_param=pin_uv_param,
        pin_uv_protocol=protocol.VERSION if token else None,
    )


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=["protocol-1", "protocol-2"])
def test_set_pin_get_a_token_and_make_a_verified_credential(tmp_path, protocol):
    with running_device(tmp_path) as path:
        ctap = Ctap2(open_device(path))
        assert "FIDO_2_1" in ctap.info.versions
        assert ctap.info.options["clientPin"] is False
        assert protocol.VERSION in ctap.info.pin_uv_protocols
        pin = ClientPin(ctap, protocol())
        pin.set_pin(PIN)
        assert ctap.get_info().options["clientPin"] is True
        assert pin.get_pin_retries()[0] == 8

        # A PIN is set: makeCredential without a pinUvAuthParam needs one (§6.1.2 step 6).
        with pytest.raises(CtapError) as required:
            make_credential(ctap, rk=True)
        assert required.value.code == CtapError.ERR.PUAT_REQUIRED

        token = pin.get_pin_token(PIN, MC_GA, RP_ID)
        attestation = make_credential(ctap, token, pin.protocol)
        assert attestation.auth_data.is_user_verified()

        # A param made with the wrong token is refused.
        with pytest.raises(CtapError) as invalid:
            make_credential(ctap, bytes(32), pin.protocol)
        assert invalid.value.code == CtapError.ERR.PIN_AUTH_INVALID


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=["protocol-1", "protocol-2"])
def test_change_pin_retires_the_old_one(tmp_path, protocol):
    with running_device(tmp_path) as path:
        ctap = Ctap2(open_device(path))
        pin = ClientPin(ctap, protocol())
        pin.set_pin(PIN)
        # setPIN once a PIN is set (§6.5.5.5 step 3).
        with pytest.raises(CtapError) as again:
            pin.set_pin("another pin")
        assert again.value.code == CtapError.ERR.PIN_AUTH_INVALID
        pin.change_pin(PIN, "new pin 1234")
        with pytest.raises(CtapError) as old:
            pin.get_pin_token(PIN, MC_GA, RP_ID)
        assert old.value.code == CtapError.ERR.PIN_INVALID
        assert pin.get_pin_token("new pin 1234", MC_GA, RP_ID)


def wrong_pin(pin):
    """A wrong PIN offered for a token; the error code."""
    with pytest.raises(CtapError) as wrong:
        pin.get_pin_token("wrong pin", MC_GA, RP_ID)
    return wrong.value.code


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=["protocol-1", "protocol-2"])
def test_wrong_pins_count_down_and_the_third_in_a_row_blocks_until_power_cycle(tmp_path, protocol):
    with running_device(tmp_path) as path:
        pin = ClientPin(Ctap2(open_device(path)), protocol())
        pin.set_pin(PIN)
        for left in (7, 6):
            assert wrong_pin(pin) == CtapError.ERR.PIN_INVALID
            assert pin.get_pin_retries()[0] == left
        # The third in a row (§6.5.5.5 step 6): blocked until a power cycle, even for the right PIN.
        assert wrong_pin(pin) == CtapError.ERR.PIN_AUTH_BLOCKED
        assert pin.get_pin_retries()[0] == 5
        with pytest.raises(CtapError) as even_right:
            pin.get_pin_token(PIN, MC_GA, RP_ID)
        assert even_right.value.code == CtapError.ERR.PIN_AUTH_BLOCKED
        assert pin.get_pin_retries()[0] == 5


def test_retries_survive_a_restart_and_eight_wrong_pins_block_for_good(tmp_path):
    store = tmp_path / "store"
    with running_device(tmp_path, store=store) as path:
        pin = ClientPin(Ctap2(open_device(path)))
        pin.set_pin(PIN)
        assert wrong_pin(pin) == CtapError.ERR.PIN_INVALID
        assert wrong_pin(pin) == CtapError.ERR.PIN_INVALID

    # A restart is a power cycle: the retries are the store's, the right PIN restores them.
    with running_device(tmp_path, store=store) as path:
        pin = ClientPin(Ctap2(open_device(path)))
        assert pin.get_pin_retries()[0] == 6
        assert pin.get_pin_token(PIN, MC_GA, RP_ID)
        assert pin.get_pin_retries()[0] == 8

    # Eight wrong PINs, at most three per power cycle, block the PIN until Reset (PIN_BLOCKED).
    left = 8
    while left > 0:
        with running_device(tmp_path, store=store) as path:
            pin = ClientPin(Ctap2(open_device(path)))
            for _ in range(min(3, left)):
                left -= 1
                code = wrong_pin(pin)
                if left == 0:
                    assert code == CtapError.ERR.PIN_BLOCKED
                elif left % 3 == 2:
                    assert code == CtapError.ERR.PIN_AUTH_BLOCKED
                else:
                    assert code == CtapError.ERR.PIN_INVALID
            assert pin.get_pin_retries()[0] == left
    with running_device(tmp_path, store=store) as path:
        pin = ClientPin(Ctap2(open_device(path)))
        with pytest.raises(CtapError) as blocked:
            pin.get_pin_token(PIN, MC_GA, RP_ID)
        assert blocked.value.code == CtapError.ERR.PIN_BLOCKED


def test_fido2_client_asks_for_the_pin_and_py_webauthn_sees_user_verification(tmp_path):
    with running_device(tmp_path) as path:
        ClientPin(Ctap2(open_device(path))).set_pin(PIN)
        client = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN), TypesPin(PIN))
        verified, _ = register(client, extensions={
            "credentialProtectionPolicy": "userVerificationRequired", "enforceCredentialProtectionPolicy": True,
        })
        assert verified.user_verified
        # credProtect 3: found only with user verification, which the PIN now gives.
        from webauthn.helpers.structs import UserVerificationRequirement

        assertion = authenticate(client, verified, count=verified.sign_count, uv=UserVerificationRequirement.REQUIRED)
        assert AuthenticatorData(assertion.response.authenticator_data).is_user_verified()

        wrong = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN), TypesPin("wrong pin"))
        with pytest.raises(ClientError) as refused:
            register(wrong)
        assert refused.value.code == ClientError.ERR.BAD_REQUEST
