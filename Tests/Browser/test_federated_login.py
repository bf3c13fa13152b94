"""An app logs in at tenant A through tenant B, the passkey provider (issue 40), with clients this
package did not write on the app's side, and without a browser (federation.py: two processes).

Authlib (unmodified, from PyPI) is a regular web application of A: its authorization URL names the
connection `idp`; A sends the user agent to B, B to the app's invoke URL with the authenticate URL;
the app's embedded SDK (federation.Agent) authenticates there with a passkey B issued natively, and
opens the `redirectUrl` B answers, which returns through B and A to the app's callback with A's
code. Authlib exchanges it (`client_secret_basic`) and validates A's ID token against A's JWKS; its
`sub` is `oidc|idp|` and B's `sub`, and A's Management API shows the user's identity. A second
authorization skips both tenants. Then the CLI's `passkey login --web --connection idp`, and what the
app sees when B denies, when B is not there, and a tenant given an invoke URL it must refuse.
"""

import json
import os
import secrets
import subprocess
import urllib.parse
import warnings

import pytest
from authlib.integrations.requests_client import OAuth2Session
from authlib.oidc.core import CodeIDToken

with warnings.catch_warnings():
    # Authlib 1.x points at joserfc for new code; its own jwt.decode is what an Authlib RP calls.
    warnings.simplefilter("ignore")
    from authlib.jose import JsonWebKey, jwt

from conftest import passkey_binary
from federation import APP_CALLBACK, Agent, single
from test_web_auth import email
from web_auth_app import free_port

SCOPE = "openid profile email"


@pytest.fixture(scope="module")
def callback():
    """The app's redirect URI: a loopback port nothing listens on (the agent never fetches it)."""
    return APP_CALLBACK.replace("127.0.0.1", f"127.0.0.1:{free_port()}")


@pytest.fixture
def person(federation, tmp_path):
    """A passkey store with a passkey B issued natively: (store, B's sub, email)."""
    address = email("federated")
    store = tmp_path / "phone"
    return store, federation.sign_up_at_provider(store, address), address


def authlib_client(federation, callback):
    app = federation.app
    client = OAuth2Session(
        client_id=app["client_id"], client_secret=app["client_secret"], scope=SCOPE, redirect_uri=callback,
        token_endpoint_auth_method="client_secret_basic", code_challenge_method="S256")
    return client


def authorization_url(federation, client, **parameters):
    """Authlib's authorization URL at A (state, nonce, PKCE S256): (url, state, verifier, nonce)."""
    verifier, nonce = secrets.token_urlsafe(40), secrets.token_urlsafe(16)
    url, state = client.create_authorization_url(
        federation.tenant.origin + "/authorize", code_verifier=verifier, nonce=nonce, **parameters)
    return url, state, verifier, nonce


def validated_id_token(federation, token, nonce):
    """A's ID token, validated by Authlib: signature with A's JWKS, iss, aud, exp, nonce."""
    keys = JsonWebKey.import_key_set(federation.tenant.get("/.well-known/jwks.json", verify=federation.ca).json())
    claims = jwt.decode(
        token["id_token"], keys, claims_cls=CodeIDToken,
        claims_options={"iss": {"essential": True, "value": federation.tenant.issuer}},
        claims_params={"nonce": nonce, "client_id": federation.app["client_id"]})
    claims.validate(leeway=60)
    return claims


def test_authlib_logs_in_at_a_through_bs_embedded_passkey_login(federation, callback, person):
    store, provider_sub, address = person
    client, agent = authlib_client(federation, callback), Agent(federation)
    url, state, verifier, nonce = authorization_url(federation, client, connection="idp")

    invoked = agent.follow(url, until=federation.invoked)
    authenticate = urllib.parse.urlsplit(single(invoked, "url"))
    assert (authenticate.scheme, authenticate.netloc, authenticate.path) == (
        "https", f"localhost:{federation.provider.port}", "/embedded/authenticate")
    redirect = agent.authenticate(invoked, store)
    assert redirect.startswith(federation.provider.origin + "/embedded/continue?request="), redirect
    answered = agent.follow(redirect, until=lambda location: location.startswith(callback))
    assert single(answered, "state") == state

    token = client.fetch_token(federation.tenant.origin + "/oauth/token", authorization_response=answered,
                               code_verifier=verifier, verify=str(federation.ca))
    claims = validated_id_token(federation, token, nonce)
    assert claims["sub"] == f"oidc|idp|{provider_sub}" and claims["aud"] == federation.app["client_id"]
    (user,) = [user for user in federation.users_at_tenant() if user["user_id"] == claims["sub"]]
    assert user["identities"] == [
        {"provider": "oidc", "connection": "idp", "user_id": provider_sub, "isSocial": False}]

    # A's login session covers the upstream login: the next authorization skips A and B.
    url, state, verifier, nonce = authorization_url(federation, client, connection="idp")
    again = agent.follow(url, until=lambda location: location.startswith(callback), hops=1)
    token = client.fetch_token(federation.tenant.origin + "/oauth/token", authorization_response=again,
                               code_verifier=verifier, verify=str(federation.ca))
    assert validated_id_token(federation, token, nonce)["sub"] == claims["sub"]


def test_when_b_denies_the_app_hears_access_denied_and_a_makes_no_user(federation, callback, person):
    store, provider_sub, _ = person
    client, agent = authlib_client(federation, callback), Agent(federation)
    url, state, _, _ = authorization_url(federation, client, connection="idp")
    redirect = agent.authenticate(agent.follow(url, until=federation.invoked), store, error="access_denied")
    answered = agent.follow(redirect, until=lambda location: location.startswith(callback))
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(answered).query))
    assert (query["error"], query["state"]) == ("access_denied", state) and query["error_description"]
    assert "code" not in query
    assert not [user for user in federation.users_at_tenant() if user["user_id"].endswith(provider_sub)]


def test_when_b_is_not_there_the_app_hears_an_error(federation, callback):
    client, agent = authlib_client(federation, callback), Agent(federation)
    url, state, _, _ = authorization_url(federation, client, connection="down")
    answered = agent.follow(url, until=lambda location: location.startswith(callback))
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(answered).query))
    assert (query["error"], query["state"]) == ("temporarily_unavailable", state), query
    assert "down" in query["error_description"] and "code" not in query


@pytest.mark.parametrize("invoke_url", ["http://app.example/invoke", "ftp://127.0.0.1/invoke", "/invoke"])
def test_a_tenant_refuses_an_invoke_url_it_cannot_send_a_browser_to(invoke_url):
    """An invoke URL is absolute https, or http on a loopback host: anything else refuses to open."""
    started = subprocess.run(
        [passkey_binary(), "tenant", "serve", "--db", ":memory:", "--port", "0",
         "--app", f"name=embedded,app_type=regular_web,callbacks=https://app.example/cb,invoke_url={invoke_url}"],
        capture_output=True, text=True, timeout=30)
    assert started.returncode != 0 and "invoke_url" in started.stderr, started


def test_the_cli_logs_in_at_a_through_b_with_the_stores_passkey(federation, person, tmp_path):
    """`passkey login --web --connection idp`: no browser; the CLI follows A and B itself and answers
    B's invoke URL (its default, the one B's client registers) with the store's passkey."""
    store, provider_sub, address = person
    at_a = ["--base-url", federation.tenant.origin, "--client-id", federation.tenant.client_id,
            "--cacert", str(federation.ca), "--store", str(store), "--sessions", str(tmp_path / "sessions")]
    # --cacert is trusted by every hop of the user agent too, B's included: no CA bundle in the environment.
    environment = {key: value for key, value in os.environ.items() if key not in ("CURL_CA_BUNDLE", "SSL_CERT_FILE")}
    login = subprocess.run([passkey_binary(), "login", "--web", "--connection", "idp", *at_a],
                           capture_output=True, text=True, timeout=60, env=environment)
    assert login.returncode == 0, login.stderr[-6000:]
    assert login.stdout.startswith(f"Logged in {address} (oidc|idp|{provider_sub})"), login.stdout
    whoami = subprocess.run([passkey_binary(), "whoami", "--json", *at_a], capture_output=True, text=True, timeout=60)
    assert whoami.returncode == 0 and json.loads(whoami.stdout)["sub"] == f"oidc|idp|{provider_sub}", whoami
