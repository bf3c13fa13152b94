"""Auth0's own Authentication API client, `auth0-python` unmodified, logging in without a password against
`passkey tenant serve --test-outbox` over TLS from a test CA (issue 41): `Passwordless.email` and `Passwordless.sms`
send a code to the tenant's outbox, `GET /test/outbox` shows it, and `GetToken.passwordless_login` exchanges it for
tokens; a wrong code is refused as Auth0 refuses it."""

import base64
import json
import ssl
import urllib.parse
import urllib.request

import pytest
from auth0.authentication import GetToken, Passwordless
from auth0.authentication.exceptions import Auth0Error

from conftest import tls_tenant


@pytest.fixture
def tenant(tmp_path, monkeypatch):
    """A TLS tenant with its test outbox; requests (under auth0-python) trusts the test CA through
    REQUESTS_CA_BUNDLE. Yields (domain, client_id, outbox(address) -> messages)."""
    with tls_tenant(tmp_path, "--test-outbox") as (line, ca):
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca))
        context = ssl.create_default_context(cafile=str(ca))

        def outbox(address):
            url = line["url"] + "/test/outbox?to=" + urllib.parse.quote(address)
            with urllib.request.urlopen(url, context=context) as answer:
                return json.loads(answer.read())

        yield line["url"].removeprefix("https://"), line["client_id"], outbox


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def test_an_email_code_logs_in(tenant):
    domain, client_id, outbox = tenant
    started = Passwordless(domain, client_id).email("ada@example.com", send="code")
    assert started["email"] == "ada@example.com" and len(started["_id"]) == 24
    code = outbox("ada@example.com")[-1]["code"]

    tokens = GetToken(domain, client_id).passwordless_login(
        username="ada@example.com", otp=code, realm="email", scope="openid email", audience=None)
    assert tokens["token_type"] == "Bearer"
    id_token = claims(tokens["id_token"])
    assert id_token["sub"] == "email|" + started["_id"]
    assert id_token["email"] == "ada@example.com" and id_token["email_verified"] is True


def test_an_sms_code_logs_in_and_a_used_one_is_refused(tenant):
    domain, client_id, outbox = tenant
    started = Passwordless(domain, client_id).sms("+15555550100")
    assert started["phone_number"] == "+15555550100"
    message = outbox("+15555550100")[-1]
    assert message["channel"] == "sms" and message["kind"] == "passwordless_code"

    login = GetToken(domain, client_id)
    tokens = login.passwordless_login(
        username="+15555550100", otp=message["code"], realm="sms", scope="openid", audience=None)
    assert claims(tokens["id_token"])["sub"].startswith("sms|")
    with pytest.raises(Auth0Error) as refused:
        login.passwordless_login(
            username="+15555550100", otp=message["code"], realm="sms", scope="openid", audience=None)
    assert (refused.value.status_code, refused.value.error_code) == (403, "invalid_grant")
    assert refused.value.message == "Wrong phone number or verification code."


def test_a_bad_connection_is_refused_as_auth0_refuses_it(tenant):
    domain, client_id, _ = tenant
    with pytest.raises(Auth0Error) as refused:
        Passwordless(domain, client_id).email("not an email", send="code")
    assert (refused.value.status_code, refused.value.error_code) == (400, "bad.email")
