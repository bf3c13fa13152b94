"""The page-driven variant of the federated login (issue 40) in real browsers: the app opens tenant
A's `/authorize?connection=idp-page`, A sends the browser to tenant B, whose client for that
connection has no invoke URL, so B shows its login page; the person signs up there with a passkey
(a SoftPasskey authenticator through the page bridge); B answers A's `/login/callback`, and A the
app's loopback listener with A's code (federation.py: the two processes). The app exchanges the
code (public client, PKCE) and validates A's ID token with PyJWT over A's JWKS: its `sub` is
`oidc|idp-page|` and B's. A second authorization skips both tenants: no page, no ceremony.

Chromium and Firefox ESR (the engines of the conftest with a preload bridge); B's page is served
over TLS from the test root, whose certificate both browsers' sessions accept.
"""

import jwt
import pytest

from conftest import until_stopped
from test_web_auth import BridgeUser, email
from web_auth_app import AuthorizationRequest, CallbackListener

ENGINES = pytest.mark.parametrize("engine", ["chromium", "firefox"], indirect=True)
SCOPE = "openid profile email"


@pytest.fixture(scope="module")
def listener():
    yield from until_stopped(CallbackListener())


@pytest.fixture
def callbacks(listener, federation, monkeypatch):
    """The app's loopback listener, drained; the app's requests (the code exchange) trust the root."""
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(federation.ca))
    listener.drain()
    return listener


def validated_id_token(tenant, token, nonce):
    """A's ID token, checked with PyJWT: RS256 over A's JWKS, `iss` A's issuer, `aud`, `exp`, `nonce`."""
    key = jwt.PyJWKSet.from_dict(tenant.get("/.well-known/jwks.json").json())[jwt.get_unverified_header(token)["kid"]]
    claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=tenant.client_id, issuer=tenant.issuer,
                        leeway=60, options={"require": ["iss", "sub", "aud", "exp", "iat"]})
    assert claims.get("nonce") == nonce, claims
    return claims


def redeemed(user, tenant, callbacks, request):
    """A's validated claims for the code the listener receives for `request`."""
    code = request.code(callbacks.next(describe=user.describe))
    user.arrive(callbacks.origin)
    answer = request.token_request(code)
    assert answer.status_code == 200, answer.text
    return validated_id_token(tenant, answer.json()["id_token"], request.nonce)


@ENGINES
def test_a_browser_logs_in_at_a_on_bs_login_page_and_then_skips_both(
        engine, open_tab, authenticator, federation, callbacks):
    tenant, provider = federation.tenant, federation.provider
    user = BridgeUser(open_tab, authenticator, provider)
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, scope=SCOPE, connection="idp-page")
    user.goto(request.url)
    user.arrive(provider.origin + "/authorize?")
    address = email(f"federated-{engine.name}")
    user.press("#signup", address)
    claims = redeemed(user, tenant, callbacks, request)
    assert claims["sub"].startswith("oidc|idp-page|") and claims["email"] == address, claims
    [credential] = authenticator.credentials()
    assert (credential["rpId"], credential["userName"]) == ("localhost", address)

    again = AuthorizationRequest(tenant, callbacks.redirect_uri, scope=SCOPE, connection="idp-page")
    user.goto(again.url)
    skipped = redeemed(user, tenant, callbacks, again)
    assert (skipped["sub"], skipped["auth_time"]) == (claims["sub"], claims["auth_time"])
    assert authenticator.credentials()[0]["signCount"] == credential["signCount"], "no ceremony"
