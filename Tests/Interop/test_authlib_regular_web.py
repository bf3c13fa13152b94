"""A regular web application on `passkey tenant serve`, driven by Authlib, an OAuth 2.0 / OpenID
Connect client this package did not write (issue 39): the authorization code flow with PKCE,
the client authenticating with `client_secret_basic` (RFC 6749 §2.3.1) and with
`client_secret_post`, the ID token validated with Authlib against the tenant's JWKS, a refresh, a
revocation. The login page's passkey ceremony runs without a browser: its page API gives the
options, `passkey create` answers them as the page's `navigator.credentials.create` would."""

import html
import json
import re
import subprocess
import warnings
from urllib.parse import parse_qsl, urlparse

import pytest
import requests
from authlib.common.errors import AuthlibBaseError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oidc.core import CodeIDToken

with warnings.catch_warnings():
    # Authlib 1.x points at joserfc for new code; its own jwt.decode is what an Authlib RP calls.
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey, jwt

from conftest import passkey_binary

CALLBACK = "http://127.0.0.1:53117/callback"
SCOPE = "openid profile email offline_access"


@pytest.fixture
def tenant(tmp_path):
    """A tenant with two regular web apps, one per secret method; its start line."""
    apps = [
        f"name=web-{method},app_type=regular_web,callbacks=http://127.0.0.1/callback,"
        f"token_endpoint_auth_method=client_secret_{method}"
        for method in ("basic", "post")
    ]
    process = subprocess.Popen(
        [passkey_binary(), "tenant", "serve", "--json", "-v", "--db", str(tmp_path / "tenant.sqlite"),
         *sum((["--app", app] for app in apps), [])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        start = json.loads(process.stdout.readline())
        # The page's origin is the host the browser asked for: localhost, which the RP ID admits.
        start["base"] = start["url"].replace("127.0.0.1", "localhost")
        start["store"] = tmp_path / "store"
        yield start
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
        assert "POST /oauth/token " in errors, "requests are logged"
        for app in start["applications"]:
            assert app["client_secret"] not in errors, "a secret reached the log"


def application(tenant, method):
    (app,) = [a for a in tenant["applications"] if a["token_endpoint_auth_method"] == method]
    assert app["app_type"] == "regular_web" and app["client_secret"]
    return app


def session(tenant, app, **overrides):
    values = dict(
        client_id=app["client_id"], client_secret=app["client_secret"], scope=SCOPE, redirect_uri=CALLBACK,
        token_endpoint_auth_method=app["token_endpoint_auth_method"],
        revocation_endpoint_auth_method=app["token_endpoint_auth_method"], code_challenge_method="S256",
    )
    values.update(overrides)
    return OAuth2Session(**values)


def sign_up_for_redirect(tenant, authorize_url, email):
    """The login page without a browser: GET /authorize, then the page's signup ceremony through
    its page API with `passkey create` as the authenticator; the callback URL it sends the browser to."""
    base = tenant["base"]
    browser = requests.Session()
    page = browser.get(authorize_url, allow_redirects=False)
    assert page.status_code == 200, page.text
    transaction = html.unescape(re.search(r'data-transaction="([^"]+)"', page.text).group(1))
    headers = {"Origin": base}
    options = browser.post(
        base + "/u/passkey/options", json={"transaction": transaction, "mode": "signup", "identifier": email},
        headers=headers)
    assert options.status_code == 200, options.text
    assert options.json()["mode"] == "create"
    created = subprocess.run(
        [passkey_binary(), "create", "--origin", base, "--store", str(tenant["store"])],
        input=json.dumps(options.json()["publicKey"]).encode(), capture_output=True, timeout=60)
    assert created.returncode == 0, created.stderr.decode()
    verified = browser.post(
        base + "/u/passkey/verify", json={"transaction": transaction, "credential": json.loads(created.stdout)},
        headers=headers)
    assert verified.status_code == 200, verified.text
    return verified.json()["redirect"]


def authorization(tenant, client, email):
    """Authlib's authorization URL (state, nonce, PKCE S256) and the callback the page answers with."""
    verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk" + "x" * 10
    nonce = "n-" + email.split("@")[0]
    url, state = client.create_authorization_url(
        tenant["base"] + "/authorize", code_verifier=verifier, nonce=nonce)
    redirect = sign_up_for_redirect(tenant, url, email)
    assert dict(parse_qsl(urlparse(redirect).query))["state"] == state
    return redirect, verifier, nonce


def validated_id_token(tenant, app, token, nonce):
    """The ID token's claims, validated by Authlib: signature with the tenant's JWKS, iss, aud, exp, nonce."""
    jwks = requests.get(tenant["base"] + "/.well-known/jwks.json").json()
    claims = jwt.decode(
        token["id_token"], JsonWebKey.import_key_set(jwks), claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": tenant["issuer"]}},
        claims_params={"nonce": nonce, "client_id": app["client_id"]})
    claims.validate(leeway=60)
    return claims


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_authlib_logs_in_refreshes_and_revokes(tenant, method):
    app = application(tenant, method)
    client = session(tenant, app)
    email = f"{method.replace('_', '-')}@example.com"
    redirect, verifier, nonce = authorization(tenant, client, email)
    token_url = tenant["base"] + "/oauth/token"

    token = client.fetch_token(token_url, authorization_response=redirect, code_verifier=verifier)
    claims = validated_id_token(tenant, app, token, nonce)
    assert claims["aud"] == app["client_id"] and claims["email"] == email
    assert token["token_type"] == "Bearer" and token["refresh_token"]

    refreshed = client.refresh_token(token_url, refresh_token=token["refresh_token"])
    assert refreshed["access_token"] != token["access_token"]
    assert validated_id_token(tenant, app, refreshed, None)["sub"] == claims["sub"]

    revoked = client.revoke_token(
        tenant["base"] + "/oauth/revoke", token=refreshed["refresh_token"], token_type_hint="refresh_token")
    assert revoked.status_code == 200, revoked.text
    with pytest.raises(AuthlibBaseError) as refused:
        client.refresh_token(token_url, refresh_token=refreshed["refresh_token"])
    assert refused.value.error == "invalid_grant"


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_a_wrong_secret_is_invalid_client(tenant, method):
    app = application(tenant, method)
    redirect, verifier, _ = authorization(tenant, session(tenant, app), f"wrong-{method[14:]}@example.com")
    impostor = session(tenant, app, client_secret="not-" + app["client_secret"])
    with pytest.raises(AuthlibBaseError) as refused:
        impostor.fetch_token(tenant["base"] + "/oauth/token", authorization_response=redirect, code_verifier=verifier)
    assert refused.value.error == "invalid_client"
    assert app["client_secret"] not in str(refused.value.description)
