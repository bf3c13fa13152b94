"""Auth0's own Authentication API client, `auth0-python`'s `Database` and `GetToken` unmodified, against `passkey
tenant serve` over TLS from a test CA (issue 41): a database user signed up with a password (`Database.signup`),
logged in with the password-realm grant (`GetToken.login(realm=…)`), and a password change asked for
(`Database.change_password`); each refusal in Auth0's shape, as `Auth0Error` reads it."""

import pytest
from auth0.authentication import Database, GetToken, Users
from auth0.authentication.exceptions import Auth0Error

from conftest import tls_tenant

CONNECTION = "Username-Password-Authentication"
PASSWORD = "Correct-Horse-9-staple"


@pytest.fixture
def tenant(tmp_path, monkeypatch):
    """A TLS tenant's domain and native client ID, trusting the test CA through REQUESTS_CA_BUNDLE (as requests,
    under the SDK's Authentication API, reads it)."""
    with tls_tenant(tmp_path) as (line, ca):
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca))
        yield line["url"].removeprefix("https://"), line["client_id"]


def test_signup_then_password_realm_login_then_change_password(tenant):
    domain, client_id = tenant
    database = Database(domain, client_id)
    created = database.signup(email="ada@example.com", password=PASSWORD, connection=CONNECTION,
                              username="ada", user_metadata={"plan": "trial"}, given_name="Ada")
    assert created["email"] == "ada@example.com" and created["email_verified"] is False
    user_id = "auth0|" + created["_id"]

    tokens = GetToken(domain, client_id).login(username="ada@example.com", password=PASSWORD,
                                               scope="openid profile email offline_access", realm=CONNECTION)
    assert tokens["token_type"] == "Bearer" and tokens["refresh_token"]
    by_username = GetToken(domain, client_id).login(username="ada", password=PASSWORD, scope="openid",
                                                    realm=CONNECTION)
    assert by_username["id_token"].count(".") == 2
    assert Users(domain).userinfo(tokens["access_token"])["sub"] == user_id

    sent = database.change_password(email="ada@example.com", connection=CONNECTION)
    assert sent == "We've just sent you an email to reset your password."
    # The same answer for an email nobody has, so the answer tells nothing about who has an account.
    assert database.change_password(email="nobody@example.com", connection=CONNECTION) == sent


def test_refusals_come_in_auth0s_shapes(tenant):
    domain, client_id = tenant
    database = Database(domain, client_id)
    with pytest.raises(Auth0Error) as weak:
        database.signup(email="ada@example.com", password="short", connection=CONNECTION)
    assert (weak.value.status_code, weak.value.error_code) == (400, "invalid_password")
    database.signup(email="ada@example.com", password=PASSWORD, connection=CONNECTION)
    with pytest.raises(Auth0Error) as taken:
        database.signup(email="ada@example.com", password=PASSWORD, connection=CONNECTION)
    assert (taken.value.status_code, taken.value.error_code) == (400, "user_exists")
    with pytest.raises(Auth0Error) as wrong:
        GetToken(domain, client_id).login(username="ada@example.com", password="Wrong-Horse-9-staple",
                                          scope="openid", realm=CONNECTION)
    assert (wrong.value.status_code, wrong.value.error_code, wrong.value.message) == (
        403, "invalid_grant", "Wrong email or password.")
