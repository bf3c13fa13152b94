"""auth0-python unmodified against `passkey tenant serve` over TLS from a test CA (issue 41, user metadata): a passkey
user signed up with the CLI, `Users.userinfo` (the Authentication API) showing them, the Management API's
`users.update` with `user_metadata` and `app_metadata` (the machine-to-machine client), merged one level deep with what
the user set with their own token (`passkey user metadata set`), and read back both ways."""

import json
import subprocess

import pytest
from auth0.authentication import Users
from auth0.management import ManagementClient

from conftest import passkey_binary


@pytest.fixture
def cli(trusted_tls_tenant, tmp_path):
    """Runs `passkey ARGS --json` as the tenant's native application's user, sessions and passkeys under tmp_path;
    the parsed JSON."""
    def run(*args):
        result = subprocess.run(
            [passkey_binary(), *args, "--json", "--base-url", trusted_tls_tenant["url"], "--client-id",
             trusted_tls_tenant["client_id"], "--cacert", trusted_tls_tenant["ca"], "--sessions", str(tmp_path / "sessions"),
             "--store", str(tmp_path / "phone")],
            capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return json.loads(result.stdout)
    return run


def test_metadata_set_by_the_user_and_the_management_api(trusted_tls_tenant, cli):
    cli("signup", "--email", "ada@example.com")
    token = cli("token")["access_token"]
    domain = trusted_tls_tenant["url"].removeprefix("https://")
    profile = Users(domain).userinfo(token)
    assert profile["email"] == "ada@example.com"
    assert "user_metadata" not in profile

    assert cli("user", "metadata", "set", "theme=dark", 'prefs={"a":1}')["user_metadata"] == {
        "theme": "dark", "prefs": {"a": 1}}

    management = ManagementClient(
        domain=domain, client_id=trusted_tls_tenant["m2m_client_id"], client_secret=trusted_tls_tenant["m2m_client_secret"],
        audience=trusted_tls_tenant["management_audience"])
    updated = management.users.update(
        profile["sub"], user_metadata={"prefs": {"b": 2}, "plan": "pro"}, app_metadata={"tier": "gold"})
    assert updated.user_metadata == {"theme": "dark", "prefs": {"b": 2}, "plan": "pro"}
    assert updated.app_metadata == {"tier": "gold"}
    assert management.users.get(profile["sub"]).user_metadata["plan"] == "pro"

    assert cli("user", "metadata", "get")["user_metadata"] == {"theme": "dark", "prefs": {"b": 2}, "plan": "pro"}
    # Metadata reaches no token or userinfo answer, as on Auth0 without an Action.
    assert "user_metadata" not in Users(domain).userinfo(cli("token")["access_token"])
