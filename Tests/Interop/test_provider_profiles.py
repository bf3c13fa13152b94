"""The passkey-provider profiles as py_webauthn sees them: each provider's AAGUID (from the community
list passkeydeveloper/passkey-authenticator-aaguids), a synced (multi-device, backed-up) credential."""

import json
import os

import pytest
import webauthn
from webauthn.helpers.structs import CredentialDeviceType

from conftest import ceremony, creation_options, succeeded

PROVIDERS = {
    "icloud-keychain": "00000000-0000-0000-0000-000000000000",
    "google-password-manager": "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
    "1password": "bada5566-a7aa-401f-bd96-45619a55120d",
    "bitwarden": "d548826e-79b4-db40-a3d8-11116f7e8349",
}


def test_profiles_lists_every_profile(passkey):
    result = passkey("profiles", "--json")
    assert result.returncode == 0, result.stderr.decode()
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert set(rows) == {"platform", "security-key", "cdp", *PROVIDERS}
    for name, aaguid in PROVIDERS.items():
        assert rows[name]["aaguid"] == aaguid
        assert rows[name]["attestation"] == "none"


@pytest.mark.parametrize("profile", sorted(PROVIDERS))
def test_a_providers_passkey_carries_its_aaguid_and_is_synced(passkey, tmp_path, profile):
    challenge = os.urandom(32)
    options = creation_options(challenge, attestation="direct")
    response = succeeded(ceremony(passkey, "create", options, "https://example.org", tmp_path, "--profile", profile))
    verified = webauthn.verify_registration_response(
        credential=response, expected_challenge=challenge, expected_rp_id="example.org",
        expected_origin="https://example.org",
    )
    assert verified.aaguid == PROVIDERS[profile]
    assert verified.fmt == "none"
    assert verified.credential_device_type == CredentialDeviceType.MULTI_DEVICE
    assert verified.credential_backed_up
    assert response["authenticatorAttachment"] == "platform"
