"""A single-page application in real browsers, written the way auth0-spa-js works (static/spa.js,
served by spa_app.py from its own loopback origin) against `passkey tenant serve --app
name=spa,app_type=spa,…`: a PKCE redirect login through the tenant's login page with a passkey,
the code exchanged by `fetch` from the app's origin (CORS, with a preflight), `/userinfo` by
fetch, silent renewal through `prompt=none&response_mode=web_message` in a hidden iframe, and
refresh-token rotation by fetch, a reused refresh token revoking the family.

And the refusals as a browser enforces them: a page on a foreign origin cannot read the token
endpoint's (or discovery's) answer, and a `web_message` response never reaches an origin that is
not one of the app's Allowed Web Origins (the tenant refuses it with a page, or the page's
`frame-ancestors` and the message's `targetOrigin` keep it from the foreign page).

Chromium signs up with its own DevTools virtual authenticator, Firefox ESR through the page
bridge with a SoftPasskey authenticator of `passkey serve`.

Over TLS the tenant's login session cookie is `SameSite=None; Secure`, as Auth0's: the app on
another site (`http://127.0.0.1:A` beside `https://localhost:T`) renews silently in its iframe,
in a Chromium that trusts the test certificate (`--ignore-certificate-errors-spki-list`).
"""

import base64
import hashlib
import importlib.util
import json
from pathlib import Path

import jwt
import pytest
import requests

from cryptography import x509
from cryptography.hazmat.primitives import serialization

from conftest import passkey_binary, until_stopped, wrapped
from softpasskey.playwright import CHROMIUM, launch_chromium
from spa_app import SinglePageAppServer
from test_web_auth import BridgeUser, ChromiumUser, email
from web_auth_app import HTTP_TIMEOUT, TenantServer

SPA_CLIENT_ID = "spa-test-client-0123456789abcdef"
LOGIN_REQUIRED = {"error": "login_required", "description": "The user is not logged in."}
# A refusal waits this long for a message that must not come.
REFUSAL_SECONDS = 3


@pytest.fixture(scope="module")
def spa_server():
    yield from until_stopped(SinglePageAppServer())


@pytest.fixture(scope="module")
def spa_tenant(spa_server):
    """A tenant with the SPA: its callback on the app's origin (and one on the foreign origin, a
    registered callback that is no web origin), the app's origin its Allowed Web Origin."""
    app = ",".join([
        "name=spa", "app_type=spa", f"client_id={SPA_CLIENT_ID}", f"callbacks={spa_server.origin}/callback",
        f"callbacks={spa_server.foreign_origin}/callback", f"web_origins={spa_server.origin}",
        "allowed_origins=https://api-explorer.example.org"])
    yield from until_stopped(
        TenantServer(passkey_binary(), "--page-connect-src", "http://127.0.0.1:*", "--app", app),
        "passkey tenant serve")


@pytest.fixture
def spa(spa_server, spa_tenant):
    spa_server.config = {"tenant": spa_tenant.origin, "client_id": SPA_CLIENT_ID,
                         "redirect_uri": spa_server.origin + "/callback"}
    return spa_server


@pytest.fixture
def user(engine, chromium_user_factory, open_tab, authenticator, spa_tenant):
    """The person at the browser: Chromium with its own authenticator, or the engine's page bridge."""
    if engine.name == "chromium":
        return chromium_user_factory()
    return BridgeUser(open_tab, authenticator, spa_tenant)


@pytest.fixture
def chromium_user_factory(engine):
    users = []

    def make():
        users.append(ChromiumUser(engine.browser, conditional=False))
        return users[-1]

    yield make
    for made in users:
        made.close()


def run(user, expression):
    """Evaluates `expression` (a promise is awaited) in the user's page; its JSON value."""
    if isinstance(user, ChromiumUser):
        return json.loads(user.page.evaluate(wrapped(expression)))
    return user.tab.run(expression)


def id_token_claims(tenant, token):
    keys = jwt.PyJWKSet.from_dict(requests.get(tenant.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json())
    key = keys[jwt.get_unverified_header(token)["kid"]]
    return jwt.decode(token, key.key, algorithms=["RS256"], audience=SPA_CLIENT_ID, issuer="https://localhost/",
                      leeway=60)


def expect_tokens(answer):
    assert answer.get("status") == 200, answer
    tokens = answer["body"]
    assert tokens["access_token"] and tokens["id_token"] and tokens["refresh_token"], tokens
    return tokens


ENGINES = pytest.mark.parametrize("engine", ["chromium", "firefox"], indirect=True)


@ENGINES
def test_an_spa_logs_in_renews_silently_and_rotates_refresh_tokens(engine, user, spa, spa_tenant):
    user.goto(spa.origin + "/")
    silent = run(user, "spa.silent()")
    assert silent == {"error": "login_required", "description": "The user is not logged in."}, \
        "without a session, prompt=none answers login_required as a web message"

    address = email(f"spa-{engine.name}")
    run(user, 'spa.login({screen_hint: "signup"})')
    user.arrive(spa_tenant.origin + "/authorize?")
    user.press("#signup", address)
    user.arrive(spa.origin + "/callback?")
    tokens = expect_tokens(run(user, "spa.handleRedirectCallback()"))
    claims = id_token_claims(spa_tenant, tokens["id_token"])
    assert claims["email"] == address

    info = run(user, f"spa.userinfo({json.dumps(tokens['access_token'])})")
    assert info["status"] == 200 and info["body"]["email"] == address, info

    renewed = run(user, "spa.silent()")
    assert renewed.get("response", {}).get("code"), renewed
    silent_tokens = expect_tokens(renewed["tokens"])
    assert id_token_claims(spa_tenant, silent_tokens["id_token"])["sub"] == claims["sub"]

    first = tokens["refresh_token"]
    second = expect_tokens(run(user, f"spa.refresh({json.dumps(first)})"))["refresh_token"]
    third = expect_tokens(run(user, f"spa.refresh({json.dumps(second)})"))["refresh_token"]
    assert len({first, second, third}) == 3, "each refresh rotates the token"
    reused = run(user, f"spa.refresh({json.dumps(first)})")
    assert reused.get("status") in (400, 403) and reused["body"]["error"] == "invalid_grant", reused
    after = run(user, f"spa.refresh({json.dumps(third)})")
    assert after["body"]["error"] == "invalid_grant", "the reuse revoked the whole family"
    # The silent login's own family is another one, untouched.
    expect_tokens(run(user, f"spa.refresh({json.dumps(silent_tokens['refresh_token'])})"))


@ENGINES
def test_a_foreign_origin_reads_nothing_and_gets_no_web_message(engine, user, spa, spa_tenant):
    user.goto(spa.origin + "/")
    run(user, 'spa.login({screen_hint: "signup"})')
    user.arrive(spa_tenant.origin + "/authorize?")
    user.press("#signup", email(f"foreign-{engine.name}"))
    user.arrive(spa.origin + "/callback?")
    expect_tokens(run(user, "spa.handleRedirectCallback()"))
    discovery = spa_tenant.origin + "/.well-known/openid-configuration"
    assert run(user, f"spa.call({json.dumps(discovery)})")["status"] == 200, "the app's own origin reads it"

    user.goto(spa.foreign_origin + "/")
    token = spa_tenant.origin + "/oauth/token"
    simple = {"method": "POST", "body": f"grant_type=refresh_token&client_id={SPA_CLIENT_ID}&refresh_token=x",
              "headers": {"Content-Type": "application/x-www-form-urlencoded"}}
    preflighted = {**simple, "headers": {**simple["headers"], "Auth0-Client": "e30"}}
    for url, init in ((discovery, {}), (token, simple), (token, preflighted)):
        answer = run(user, f"spa.call({json.dumps(url)}, {json.dumps(init)})")
        assert "blocked" in answer, (url, init, answer)
    # The tenant did answer the simple request; only the browser hid it (no CORS header for this origin).
    direct = requests.get(spa_tenant.url + "/.well-known/openid-configuration",
                          headers={"Origin": spa.foreign_origin}, timeout=HTTP_TIMEOUT)
    assert direct.status_code == 200 and "access-control-allow-origin" not in direct.headers

    # The foreign origin's own (registered) callback is no web origin: the tenant answers a page, no message.
    own = run(user, f"spa.silent({{redirect_uri: {json.dumps(spa.foreign_origin + '/callback')}}}, "
                    f"{REFUSAL_SECONDS})")
    assert own == {"timeout": True}, own
    # The app's redirect URI from the foreign page: the message is for the app's origin only, and
    # only the app's origin may frame the page.
    stolen = run(user, f"spa.silent({{}}, {REFUSAL_SECONDS})")
    assert stolen == {"timeout": True}, stolen
    messages = run(user, "spa.messages")
    assert not [m for m in messages if isinstance(m["data"], dict) and "response" in m["data"]], messages

    refused = requests.get(spa_tenant.origin + "/authorize", params={
        "client_id": SPA_CLIENT_ID, "response_type": "code", "redirect_uri": spa.foreign_origin + "/callback",
        "response_mode": "web_message", "prompt": "none", "code_challenge": "a" * 43,
        "code_challenge_method": "S256", "state": "s"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert refused.status_code == 400 and "data-response" not in refused.text


@pytest.mark.parametrize("engine", ["chromium"], indirect=True)
def test_form_post_and_fragment_reach_the_app_under_the_pages_policy(engine, chromium_user_factory, spa, spa_tenant):
    """Over a login session, `response_mode=form_post` answers a page whose script submits the form
    to the redirect URI (its CSP's `form-action` is that origin, its script `'self'`), and
    `fragment` puts the code after `#`; Chromium reports no policy violation on the way."""
    user = chromium_user_factory()
    user.goto(spa.origin + "/")
    run(user, 'spa.login({screen_hint: "signup"})')
    user.arrive(spa_tenant.origin + "/authorize?")
    user.press("#signup", email("form-post"))
    user.arrive(spa.origin + "/callback?")
    expect_tokens(run(user, "spa.handleRedirectCallback()"))

    user.goto(spa.origin + "/")
    run(user, 'spa.login({response_mode: "form_post"})')
    path, fields = spa.posted.get(timeout=10)
    assert path == "/callback" and fields["code"] and fields["state"], fields
    assert set(fields) == {"code", "state"}
    user.arrive(spa.origin + "/callback")
    without_verifier = {"method": "POST", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                        "body": f"grant_type=authorization_code&client_id={SPA_CLIENT_ID}&code={fields['code']}"}
    token = json.dumps(spa_tenant.origin + "/oauth/token")
    tokens = run(user, f"spa.call({token}, {json.dumps(without_verifier)})")
    assert tokens["status"] == 403 and tokens["body"]["error"] == "invalid_grant", "PKCE: no verifier, no tokens"

    user.goto(spa.origin + "/")
    run(user, 'spa.login({response_mode: "fragment"})')
    user.arrive(spa.origin + "/callback#")
    fragment = run(user, "location.hash")
    assert fragment.startswith("#code=") and "&state=" in fragment, fragment
    assert user.problems == [], "no Content-Security-Policy violation"


def interop_tls_files(directory):
    """The interop suite's `tls_files` (a test root and a certificate for localhost), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "interop_conftest", Path(__file__).resolve().parents[1] / "Interop" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tls_files(directory)


@pytest.fixture(scope="module")
def tls_tenant(spa_server, tmp_path_factory):
    """A tenant over TLS at `https://localhost:T`, with the SPA on another site: its origin
    `http://127.0.0.1:A` (the app server's other name) is the callback's and the Allowed Web Origin."""
    files = interop_tls_files(tmp_path_factory.mktemp("tls"))
    app = ",".join([
        "name=spa", "app_type=spa", f"client_id={SPA_CLIENT_ID}", f"callbacks={spa_server.foreign_origin}/callback",
        f"web_origins={spa_server.foreign_origin}"])
    tenant = TenantServer(passkey_binary(), "--tls-cert", str(files["cert"]), "--tls-key", str(files["key"]),
                          "--app", app)
    tenant.origin = f"https://localhost:{tenant.port}"
    tenant.certificate = x509.load_pem_x509_certificate(files["cert"].read_bytes())
    yield from until_stopped(tenant, "passkey tenant serve")


@pytest.mark.parametrize("engine", ["chromium"], indirect=True)
@pytest.mark.parametrize("third_party_cookies", ["allowed", "Chromium's default"])
def test_under_tls_an_spa_on_another_site_renews_silently(engine, spa_server, tls_tenant, third_party_cookies,
                                                          tmp_path):
    """The login session cookie is `SameSite=None; Secure`, so it may go with the cross-site
    iframe's request, and silent renewal from `http://127.0.0.1:A` succeeds where the browser
    allows third-party cookies (a profile whose cookie setting says so). This Chromium (156)
    blocks third-party cookies by default — in a profile on disk as in Playwright's contexts —
    so by default the iframe gets `login_required`, as it does everywhere with a `Lax` cookie."""
    spki = tls_tenant.certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    trust = "--ignore-certificate-errors-spki-list=" + base64.b64encode(hashlib.sha256(spki).digest()).decode()
    if third_party_cookies == "allowed":
        preferences = tmp_path / "profile" / "Default" / "Preferences"
        preferences.parent.mkdir(parents=True)
        preferences.write_text(json.dumps({"profile": {"cookie_controls_mode": 0}}))
        browser = engine.playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, headless=True, args=[trust])
        user = ChromiumUser(None, conditional=False, context=browser)
    else:
        browser = launch_chromium(engine.playwright, args=[trust])
        user = ChromiumUser(browser, conditional=False)
    try:
        app = spa_server.foreign_origin
        spa_server.config = {"tenant": tls_tenant.origin, "client_id": SPA_CLIENT_ID, "redirect_uri": app + "/callback"}
        user.goto(app + "/")
        assert run(user, "spa.silent()") == LOGIN_REQUIRED
        run(user, 'spa.login({screen_hint: "signup"})')
        user.arrive(tls_tenant.origin + "/authorize?")
        user.press("#signup", email("tls-cross-site"))
        user.arrive(app + "/callback?")
        expect_tokens(run(user, "spa.handleRedirectCallback()"))
        cookies = user.cookies()
        session = cookies["passkey_session"]
        assert (session["sameSite"], session["secure"], session["httpOnly"]) == ("None", True, True), session
        assert (cookies["passkey_tx"]["sameSite"], cookies["passkey_tx"]["secure"]) == ("Lax", True)

        renewed = run(user, "spa.silent()")
        if third_party_cookies == "allowed":
            assert renewed.get("response", {}).get("code"), renewed
            expect_tokens(renewed["tokens"])
        else:
            assert renewed == LOGIN_REQUIRED, "this Chromium blocks the third-party cookie by default"
    finally:
        user.close()
        browser.close()
