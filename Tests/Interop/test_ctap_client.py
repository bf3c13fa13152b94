"""`passkey device --socket` as a browser's WebAuthn stack uses a security key: python-fido2's
Fido2Client (WebAuthn L3 client, CTAP 2.1 underneath) over the CTAPHID socket, with options made
and responses verified by an independent relying party, py_webauthn. Extensions go through the
client as a page asks for them: prf (hmac-secret, CTAP 2.1 §12.5) and credProtect (§12.1)."""

import base64
import json
import os

import pytest
import webauthn
from fido2.client import ClientError, DefaultClientDataCollector, Fido2Client
from fido2.webauthn import (
    AuthenticatorData,
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialRequestOptions,
)
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from conftest import b64url
from ctap_socket import open_device, running_device

ORIGIN, RP_ID = "https://example.org", "example.org"


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture
def client(tmp_path):
    """A Fido2Client on a running `passkey device` over a fresh store."""
    with running_device(tmp_path) as path:
        yield Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN))


def options_json(options):
    """py_webauthn's options as a page hands them to navigator.credentials, less the timeout: the
    client would cancel on a timer, and these tests wait for answers, never for durations."""
    public_key = json.loads(webauthn.options_to_json(options))
    del public_key["timeout"]
    return public_key


def register(client, extensions=None, resident=True, uv=UserVerificationRequirement.DISCOURAGED):
    """A registration through the client, verified by py_webauthn (with UV when `uv` is required);
    (verified, response)."""
    options = webauthn.generate_registration_options(
        rp_id=RP_ID, rp_name="Example", user_name="ada", user_display_name="Ada",
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED if resident else ResidentKeyRequirement.DISCOURAGED,
            user_verification=uv,
        ),
    )
    public_key = options_json(options)
    if extensions:
        public_key["extensions"] = extensions
    response = client.make_credential(PublicKeyCredentialCreationOptions.from_dict(public_key))
    verified = webauthn.verify_registration_response(
        credential=dict(response), expected_challenge=options.challenge, expected_rp_id=RP_ID,
        expected_origin=ORIGIN, require_user_verification=uv == UserVerificationRequirement.REQUIRED,
    )
    return verified, response


def authenticate(client, verified, *, allow=True, extensions=None, count=0, uv=UserVerificationRequirement.DISCOURAGED):
    """An assertion through the client, verified by py_webauthn (with UV when `uv` is required); the response."""
    options = webauthn.generate_authentication_options(
        rp_id=RP_ID, user_verification=uv,
        allow_credentials=[PublicKeyCredentialDescriptor(id=verified.credential_id)] if allow else [],
    )
    public_key = options_json(options)
    if extensions:
        public_key["extensions"] = extensions
    response = client.get_assertion(PublicKeyCredentialRequestOptions.from_dict(public_key)).get_response(0)
    checked = webauthn.verify_authentication_response(
        credential=dict(response), expected_challenge=options.challenge, expected_rp_id=RP_ID,
        expected_origin=ORIGIN, credential_public_key=verified.credential_public_key,
        credential_current_sign_count=count, require_user_verification=uv == UserVerificationRequirement.REQUIRED,
    )
    assert checked.new_sign_count > count
    return response


def test_registration_and_assertions_verify_with_py_webauthn(client):
    verified, response = register(client)
    assert verified.fmt == "packed"
    assert verified.credential_type == "public-key"
    assertion = authenticate(client, verified, count=verified.sign_count)
    assert not AuthenticatorData(assertion.response.authenticator_data).is_user_verified()
    # A discoverable credential: found with no allow list, its user handle returned.
    discovered = authenticate(client, verified, allow=False, count=verified.sign_count + 1)
    assert discovered.raw_id == response.raw_id
    assert discovered.response.user_handle is not None
    assert AuthenticatorData(assertion.response.authenticator_data).is_user_present()


def test_prf_evaluates_hmac_secret_the_same_for_the_same_salt(client):
    verified, response = register(client, extensions={"prf": {}})
    assert response.client_extension_results["prf"]["enabled"] is True
    first, second = os.urandom(32), os.urandom(32)

    def evaluate(salt, count):
        # The options' JSON form, as a page gives it: base64url in, base64url out.
        extensions = {"prf": {"eval": {"first": b64url(salt)}}}
        assertion = authenticate(client, verified, extensions=extensions, count=count)
        return b64url_decode(assertion.client_extension_results["prf"]["results"]["first"])

    one = evaluate(first, verified.sign_count)
    assert len(one) == 32
    assert evaluate(first, verified.sign_count + 1) == one
    assert evaluate(second, verified.sign_count + 2) != one


def test_cred_protect_two_hides_the_credential_from_a_request_without_an_allow_list(client):
    verified, response = register(client, extensions={
        "credentialProtectionPolicy": "userVerificationOptionalWithCredentialIDList",
        "enforceCredentialProtectionPolicy": True,
    })
    assert AuthenticatorData(response.response.attestation_object.auth_data).extensions["credProtect"] == 2
    with pytest.raises(ClientError) as refused:
        authenticate(client, verified, allow=False)
    assert refused.value.code == ClientError.ERR.DEVICE_INELIGIBLE
    authenticate(client, verified, count=verified.sign_count)


def test_cred_protect_three_hides_the_credential_without_user_verification(client):
    verified, response = register(client, extensions={
        "credentialProtectionPolicy": "userVerificationRequired", "enforceCredentialProtectionPolicy": True,
    })
    assert AuthenticatorData(response.response.attestation_object.auth_data).extensions["credProtect"] == 3
    with pytest.raises(ClientError) as refused:
        authenticate(client, verified)
    assert refused.value.code == ClientError.ERR.DEVICE_INELIGIBLE


def test_several_discoverable_credentials_come_back_one_by_one_through_get_next_assertion(client):
    """Two users' passkeys for one RP and no allow list: the key has no display, so it counts
    them (numberOfCredentials) and python-fido2 fetches the second with authenticatorGetNextAssertion
    (CTAP 2.1 §6.2.2 step 7, §6.3); the client offers both, each verified by py_webauthn."""
    registered = [register(client) for _ in range(2)]
    options = webauthn.generate_authentication_options(
        rp_id=RP_ID, user_verification=UserVerificationRequirement.DISCOURAGED)
    selection = client.get_assertion(PublicKeyCredentialRequestOptions.from_dict(options_json(options)))
    assert len(selection.get_assertions()) == 2
    responses = [selection.get_response(index) for index in range(2)]
    keys = {response.raw_id: verified for verified, response in registered}
    assert set(keys) == {response.raw_id for response in responses}
    for response in responses:
        verified = keys[response.raw_id]
        assert response.response.user_handle is not None
        webauthn.verify_authentication_response(
            credential=dict(response), expected_challenge=options.challenge, expected_rp_id=RP_ID,
            expected_origin=ORIGIN, credential_public_key=verified.credential_public_key,
            credential_current_sign_count=verified.sign_count,
        )
