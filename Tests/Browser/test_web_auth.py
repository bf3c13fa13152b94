"""Web Auth in real browsers: the local tenant's login page (`GET /authorize`, /u/passkey.js) signs a
person up and logs them in, the redirect brings a code to the app's loopback listener (RFC 8252 §7.3),
and the test, playing the app, exchanges it with its PKCE verifier (RFC 7636) and validates the ID
token itself with PyJWT over the tenant's JWKS (web_auth_app.py), as README's "Local tenant" describes.

Chromium signs up and logs in with its own DevTools virtual authenticator (CDP `WebAuthn` domain),
independent of SoftPasskey's; Chromium, Firefox ESR and WebKitGTK also do it through the page bridge
with a SoftPasskey authenticator of `passkey serve`, the tenant allowing the bridge's calls in the
page's CSP (`--page-connect-src 'http://127.0.0.1:*'`, the default of `passkey tenant serve`,
given here explicitly).
"""

import json
import secrets
import time
import urllib.parse
from collections import namedtuple

import pytest

from conftest import passkey_binary, until_stopped
from web_auth_app import AuthorizationRequest, CallbackListener, TenantServer

CHROMIUM = pytest.mark.parametrize("engine", ["chromium"], indirect=True)
CONDITIONAL_ENGINES = pytest.mark.parametrize("engine", ["chromium", "firefox"], indirect=True)

# Chromium's own authenticator (CDP WebAuthn.addVirtualAuthenticator): a platform authenticator
# with resident keys and user verification whose user is always present and verified.
VIRTUAL_AUTHENTICATOR = dict(protocol="ctap2", transport="internal", hasResidentKey=True, hasUserVerification=True,
                             isUserVerified=True, automaticPresenceSimulation=True)

# Chromium's virtual authenticator answers a conditional request at once with its first passkey (no
# person to pick one). So that a button, not that answer, is what logs in, most tests show the page
# a browser without conditional mediation (which it still meets in the wild); the conditional tests
# keep it.
WITHOUT_CONDITIONAL_MEDIATION = """(() => {
  if (!window.PublicKeyCredential) return;
  PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  const capabilities = PublicKeyCredential.getClientCapabilities;
  if (capabilities) {
    PublicKeyCredential.getClientCapabilities = () =>
      capabilities.call(PublicKeyCredential).then((found) => ({...found, conditionalGet: false}));
  }
})();"""

SECURITY_HEADERS = {"x-frame-options": "DENY", "cache-control": "no-store", "referrer-policy": "no-referrer",
                    "x-content-type-options": "nosniff"}

Login = namedtuple("Login", "request code tokens claims")


@pytest.fixture(scope="module")
def tenant():
    """One local tenant for the module, its page allowing fetches to a control server on 127.0.0.1."""
    yield from until_stopped(
        TenantServer(passkey_binary(), "--page-connect-src", "http://127.0.0.1:*"), "passkey tenant serve")


@pytest.fixture(scope="module")
def listener():
    yield from until_stopped(CallbackListener())


@pytest.fixture
def callbacks(listener):
    """The app's loopback listener, with nothing left from an earlier test."""
    listener.drain()
    return listener


def email(name):
    return f"{name}-{secrets.token_hex(4)}@example.com"


def directives(policy):
    """A Content-Security-Policy as {directive: [sources]}."""
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {part[0]: part[1:] for part in parts}


# The person at the browser: goto(url), press(button, identifier=None), arrive(prefix) (waits until
# the browser shows a page there: the listener sees the redirect before the browser has loaded it),
# and describe() for failures.

class ChromiumUser:
    """A Chromium context with the browser's own virtual authenticator on its page: a new (off the
    record) context of `browser` made with `options` (Playwright's `new_context`), or the `context` given."""

    def __init__(self, browser, conditional, context=None, **options):
        self.context = context or browser.new_context(**options)
        if not conditional:
            self.context.add_init_script(script=WITHOUT_CONDITIONAL_MEDIATION)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.problems = []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda message: self.problems.append(message.text)
                     if "Content Security Policy" in message.text else None)
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("WebAuthn.enable", {"enableUI": False})
        self.authenticator = self.cdp.send("WebAuthn.addVirtualAuthenticator",
                                           {"options": VIRTUAL_AUTHENTICATOR})["authenticatorId"]

    def goto(self, url):
        return self.page.goto(url)

    def press(self, button, identifier=None):
        if identifier is not None:
            self.page.fill("#identifier", identifier)
        self.page.click(button)

    def arrive(self, prefix):
        self.page.wait_for_url(lambda url: url.startswith(prefix), timeout=10000)

    def describe(self):
        error = self.page.locator("#error")
        return {"url": self.page.url, "error": error.text_content(timeout=2000) if error.count() else None,
                "problems": self.problems}

    def credentials(self):
        return self.cdp.send("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]

    def cookies(self):
        return {cookie["name"]: cookie for cookie in self.context.cookies()}

    def close(self):
        self.context.close()


PRESS = """(() => {
  const identifier = %s, button = document.querySelector(%s);
  if (identifier !== null) {
    const field = document.querySelector("#identifier");
    field.value = identifier;
    field.dispatchEvent(new Event("input", {bubbles: true}));
  }
  if (!button) return false;
  setTimeout(() => button.click(), 0);  // it navigates away: answer first
  return true;
})()"""

DESCRIBE = '({url: location.href, error: document.querySelector("#error")?.textContent ?? null})'

ARRIVED = 'location.href.startsWith(%s) && document.readyState === "complete"'


class BridgeUser:
    """A tab of the conftest engine with a SoftPasskey authenticator's page bridge (opened at the
    first goto), usable by pages of the tenant's origin only."""

    def __init__(self, open_tab, authenticator, tenant):
        self.open_tab, self.authenticator, self.tenant = open_tab, authenticator, tenant
        self.tab = None

    def goto(self, url):
        if self.tab is None:
            self.tab = self.open_tab(self.authenticator, url, [self.tenant.origin])
        else:
            self.tab.goto(url)

    def press(self, button, identifier=None):
        assert self.tab.run(PRESS % (json.dumps(identifier), json.dumps(button))), f"no {button} on the page"

    def arrive(self, prefix, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.tab.run(ARRIVED % json.dumps(prefix)):
                    return
            except Exception:  # the page is between documents
                pass
            assert time.monotonic() < deadline, f"the browser did not arrive at {prefix}: {self.describe()}"
            time.sleep(0.1)

    def describe(self):
        try:
            return self.tab.run(DESCRIBE)
        except Exception as error:  # the tab is gone or navigating: say so
            return {"unreadable": str(error)}


def shown_error(user):
    """The text of the page's #error (None when there is none, or no page)."""
    return user.describe().get("error")


@pytest.fixture
def chromium_users(engine):
    """chromium_users(conditional=False) -> a ChromiumUser in its own context."""
    users = []

    def make(conditional=False):
        users.append(ChromiumUser(engine.browser, conditional))
        return users[-1]

    yield make
    for user in users:
        user.close()


def ceremony(user, tenant, callbacks, button, identifier=None, **parameters):
    """Opens an authorization request, presses `button` on the page, and answers the exchanged and
    validated Login."""
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, **parameters)
    user.goto(request.url)
    user.press(button, identifier)
    return redeemed(user, tenant, callbacks, request)


def redeemed(user, tenant, callbacks, request):
    """The Login of the code the listener receives for `request`, once the browser shows its page."""
    code = request.code(callbacks.next(describe=user.describe))
    user.arrive(callbacks.origin)
    tokens = request.exchange(code)
    return Login(request, code, tokens, tenant.validate_id_token(tokens["id_token"], request.nonce))


def sign_up(user, tenant, callbacks, address):
    return ceremony(user, tenant, callbacks, "#signup", address, screen_hint="signup")


def log_in(user, tenant, callbacks, **parameters):
    return ceremony(user, tenant, callbacks, "#login", prompt="login", **parameters)


# Chromium with its own authenticator

@CHROMIUM
def test_signup_and_login_with_chromiums_own_authenticator(chromium_users, tenant, callbacks):
    user = chromium_users()
    address = email("ada")
    signed_up = sign_up(user, tenant, callbacks, address)
    assert signed_up.tokens["scope"].split() == ["openid", "profile", "email", "offline_access"]
    assert signed_up.claims["email"] == address
    [credential] = user.credentials()
    assert (credential["rpId"], credential["isResidentCredential"], credential["userName"]) == \
        ("localhost", True, address)

    logged_in = log_in(user, tenant, callbacks)
    assert logged_in.claims["sub"] == signed_up.claims["sub"]
    assert logged_in.claims["auth_time"] >= signed_up.claims["auth_time"]
    assert logged_in.code != signed_up.code
    assert user.credentials()[0]["signCount"] > credential["signCount"], "the login used the passkey"

    info = tenant.userinfo(logged_in.tokens["access_token"])
    assert info.status_code == 200, info.text
    assert (info.json()["sub"], info.json()["email"]) == (signed_up.claims["sub"], address)
    assert user.problems == []


@CHROMIUM
def test_the_page_runs_under_its_policy_with_its_cookies(chromium_users, tenant, callbacks):
    user = chromium_users()
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, screen_hint="signup",
                                   login_hint="grace@example.com")
    answer = user.goto(request.url)
    assert answer.status == 200 and answer.headers["content-type"].startswith("text/html")
    assert directives(answer.headers["content-security-policy"]) == {
        "default-src": ["'none'"], "script-src": ["'self'"], "style-src": ["'self'"], "img-src": ["'self'"],
        "connect-src": ["'self'", "http://127.0.0.1:*"], "form-action": ["'self'"], "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"]}
    assert {name: answer.headers.get(name) for name in SECURITY_HEADERS} == SECURITY_HEADERS
    page = user.page
    assert page.eval_on_selector_all("script", "all => all.map((s) => s.getAttribute('src'))") == ["/u/passkey.js"]
    assert page.input_value("#identifier") == "grace@example.com"
    assert page.get_attribute("#error", "role") == "alert" and page.text_content("#error").strip() == ""
    transaction = user.cookies()["passkey_tx"]
    assert page.get_attribute("#passkey-form", "data-transaction") == transaction["value"]
    assert (transaction["path"], transaction["httpOnly"], transaction["sameSite"]) == ("/u/", True, "Lax")

    address = email("grace")
    user.press("#signup", address)
    redeemed(user, tenant, callbacks, request)
    session = user.cookies()["passkey_session"]
    assert (session["path"], session["httpOnly"], session["sameSite"]) == ("/", True, "Lax")
    assert user.problems == [], "the page works under its own policy"


@CHROMIUM
def test_conditional_mediation_with_chromiums_own_authenticator(chromium_users, tenant, callbacks):
    """With conditional mediation, the page's request on the identifier field is answered by
    Chromium's virtual authenticator without any button (it picks its only passkey)."""
    user = chromium_users(conditional=True)
    signed_up = sign_up(user, tenant, callbacks, email("alan"))
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, prompt="login")
    user.goto(request.url)
    logged_in = redeemed(user, tenant, callbacks, request)
    assert logged_in.claims["sub"] == signed_up.claims["sub"]


@CHROMIUM
def test_a_session_skips_the_page_until_logout(chromium_users, tenant, callbacks):
    user = chromium_users()
    signed_up = sign_up(user, tenant, callbacks, email("edsger"))
    [before] = user.credentials()

    for asked in ({}, {"max_age": "3600"}, {"prompt": "none"}):
        again = AuthorizationRequest(tenant, callbacks.redirect_uri, **asked)
        answer = user.goto(again.url)
        assert answer.url.startswith(callbacks.redirect_uri + "?"), (asked, answer.url)
        assert answer.request.redirected_from.url.startswith(tenant.origin + "/authorize?")
        skipped = redeemed(user, tenant, callbacks, again)
        assert skipped.claims["sub"] == signed_up.claims["sub"]
        assert skipped.claims["auth_time"] == signed_up.claims["auth_time"], "auth_time is the ceremony's"
    for asked in ({"prompt": "login"}, {"screen_hint": "signup"}, {"max_age": "0"}):
        answer = user.goto(AuthorizationRequest(tenant, callbacks.redirect_uri, **asked).url)
        assert answer.status == 200 and answer.request.redirected_from is None, asked
        assert user.page.is_visible("#login") and user.page.is_visible("#signup")
    callbacks.nothing()
    assert user.credentials()[0]["signCount"] == before["signCount"], "no ceremony"

    logout = tenant.origin + "/v2/logout?" + urllib.parse.urlencode(
        {"returnTo": callbacks.origin + "/", "client_id": tenant.client_id})
    user.goto(logout)
    assert callbacks.next(describe=user.describe) == ("/", {})
    assert "passkey_session" not in user.cookies()

    shown = AuthorizationRequest(tenant, callbacks.redirect_uri)
    answer = user.goto(shown.url)
    assert answer.status == 200 and answer.request.redirected_from is None
    assert user.page.is_visible("#login") and user.page.is_visible("#signup")
    callbacks.nothing()

    quiet = AuthorizationRequest(tenant, callbacks.redirect_uri, prompt="none")
    user.goto(quiet.url)
    path, query = callbacks.next(describe=user.describe)
    assert (path, query["error"], query["state"]) == ("/callback", "login_required", quiet.state)
    assert "code" not in query


@CHROMIUM
def test_what_a_browser_sees_when_refused(chromium_users, tenant, callbacks):
    user = chromium_users()
    for redirect_uri in (callbacks.origin + "/elsewhere", "https://app.example/callback"):
        request = AuthorizationRequest(tenant, redirect_uri)
        answer = user.goto(request.url)
        assert answer.status == 400 and answer.request.redirected_from is None, redirect_uri
        assert answer.headers["content-type"].startswith("text/html")
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
        assert user.page.url == answer.url and user.page.url.startswith(tenant.origin + "/authorize?")
        assert user.page.locator("#identifier").count() == 0 and user.page.text_content("body").strip()
    unknown = AuthorizationRequest(tenant, callbacks.redirect_uri, client_id="an-unknown-client")
    assert user.goto(unknown.url).status == 400
    evil = tenant.origin + "/v2/logout?" + urllib.parse.urlencode({"returnTo": "https://app.example/"})
    assert user.goto(evil).status == 400
    callbacks.nothing()

    # The page asked for at 127.0.0.1 (where `tenant serve` prints its URL) moves to localhost, the
    # RP ID: a browser would refuse the ceremony from an IP address.
    elsewhere = AuthorizationRequest(tenant, callbacks.redirect_uri, screen_hint="signup")
    assert user.goto(elsewhere.url.replace(tenant.origin, tenant.url)).status == 200
    assert user.page.url == elsewhere.url, user.describe()
    callbacks.nothing()

    plain = AuthorizationRequest(tenant, callbacks.redirect_uri, code_challenge_method="plain")
    user.goto(plain.url)
    path, query = callbacks.next(describe=user.describe)
    assert (path, query["error"], query["state"]) == ("/callback", "invalid_request", plain.state)
    assert query["error_description"] and "code" not in query


@CHROMIUM
def test_the_page_says_what_failed_and_the_next_try_succeeds(chromium_users, tenant, callbacks):
    """A refused signup (the email is taken) shows its reason on the page; the same page (its
    transaction) then signs up with another email."""
    user = chromium_users()
    taken = email("taken")
    sign_up(user, tenant, callbacks, taken)
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, screen_hint="signup")
    user.goto(request.url)
    user.press("#signup", taken)
    # A selector, not wait_for_function("…"): polling a string predicate evaluates it, which the page's
    # CSP (no 'unsafe-eval') refuses whenever the answer is not there at the first look.
    user.page.wait_for_selector("#error:not(:empty)", timeout=10000)
    assert len(user.credentials()) == 1
    callbacks.nothing()

    address = email("untaken")
    user.press("#signup", address)
    second = redeemed(user, tenant, callbacks, request)
    assert second.claims["email"] == address and len(user.credentials()) == 2


@CHROMIUM
def test_a_replayed_code_is_refused_and_revokes_what_it_issued(chromium_users, tenant, callbacks):
    user = chromium_users()
    signed_up = sign_up(user, tenant, callbacks, email("barbara"))
    access, refresh = signed_up.tokens["access_token"], signed_up.tokens["refresh_token"]
    assert tenant.userinfo(access).status_code == 200

    replay = signed_up.request.token_request(signed_up.code)
    assert replay.status_code == 403
    assert replay.json() == {"error": "invalid_grant", "error_description": "Invalid authorization code"}
    assert tenant.userinfo(access).status_code == 401, "the replay revoked the access token"
    refreshed, unknown = (tenant.post("/oauth/token", {"grant_type": "refresh_token", "client_id": tenant.client_id,
                                                       "refresh_token": token}) for token in (refresh, "v1.unknown"))
    assert (refreshed.status_code, refreshed.json()) == (unknown.status_code, unknown.json()), \
        "the replay revoked the refresh token: refused as an unknown one"
    assert refreshed.json()["error"] == "invalid_grant"

    another = AuthorizationRequest(tenant, callbacks.redirect_uri)
    user.goto(another.url)  # the session skips the page
    code = another.code(callbacks.next(describe=user.describe))
    wrong = another.token_request(code, verifier=AuthorizationRequest(tenant, callbacks.redirect_uri).verifier)
    assert (wrong.status_code, wrong.json()) == (
        403, {"error": "invalid_grant", "error_description": "Failed to verify code verifier"})


# Every engine through the page bridge, with a SoftPasskey authenticator

def test_signup_login_and_logout_through_the_bridge(engine, open_tab, authenticator, tenant, callbacks):
    user = BridgeUser(open_tab, authenticator, tenant)
    address = email(engine.name)
    signed_up = sign_up(user, tenant, callbacks, address)
    [credential] = authenticator.credentials()
    assert (credential["rpId"], credential["isResidentCredential"], credential["userName"]) == \
        ("localhost", True, address)

    logged_in = log_in(user, tenant, callbacks)
    assert logged_in.claims["sub"] == signed_up.claims["sub"]
    assert authenticator.credentials()[0]["signCount"] > credential["signCount"]
    assert tenant.userinfo(logged_in.tokens["access_token"]).json()["email"] == address

    # This engine keeps the session cookie: the next request skips the page, until logout.
    again = AuthorizationRequest(tenant, callbacks.redirect_uri)
    user.goto(again.url)
    assert redeemed(user, tenant, callbacks, again).claims["auth_time"] == logged_in.claims["auth_time"]
    user.goto(tenant.origin + "/v2/logout?" + urllib.parse.urlencode({"returnTo": callbacks.origin + "/"}))
    assert callbacks.next(describe=user.describe) == ("/", {})
    quiet = AuthorizationRequest(tenant, callbacks.redirect_uri, prompt="none")
    user.goto(quiet.url)
    assert callbacks.next(describe=user.describe)[1]["error"] == "login_required"


@CONDITIONAL_ENGINES
def test_conditional_login_through_the_bridge(engine, open_tab, authenticator, tenant, callbacks):
    """The page's conditional request on the identifier field, answered when the person picks the
    passkey from autofill (the control server's conditional pick)."""
    user = BridgeUser(open_tab, authenticator, tenant)
    signed_up = sign_up(user, tenant, callbacks, email(engine.name))
    [credential] = authenticator.credentials()
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, prompt="login")
    user.goto(request.url)
    picked = authenticator.conditional(credential_id=credential["credentialId"], timeout=10000)
    assert (picked["origin"], picked["rpId"]) == (tenant.origin, "localhost")
    logged_in = redeemed(user, tenant, callbacks, request)
    assert logged_in.claims["sub"] == signed_up.claims["sub"]


@CHROMIUM
def test_without_page_connect_src_the_pages_policy_blocks_the_bridge(engine, open_tab, authenticator, callbacks):
    """The page's CSP is enforced: with `--page-connect-src "'self'"` (`connect-src 'self'`) the
    bridge cannot reach the control server, so the ceremony fails on the page and nothing is
    created or redirected."""
    strict = TenantServer(passkey_binary(), "--page-connect-src", "'self'")
    try:
        user = BridgeUser(open_tab, authenticator, strict)
        request = AuthorizationRequest(strict, callbacks.redirect_uri, screen_hint="signup")
        user.goto(request.url)
        user.press("#signup", email("mallory"))
        deadline = time.monotonic() + 10
        while not shown_error(user) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert shown_error(user), f"the page says the ceremony failed: {user.describe()}"
        callbacks.nothing()
        assert authenticator.credentials() == []
    finally:
        assert strict.stop() == 0
