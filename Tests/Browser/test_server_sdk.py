"""A regular web application written with Auth0's server SDK, `auth0-server-python` (PyPI, unmodified),
logging people in on the local tenant with a passkey in Chromium (issue 39).

The tenant is served over TLS from the interop suite's test root, with `--domain localhost:PORT` so
that its discovery document points where it listens; the SDK reads discovery from https://DOMAIN and
trusts the root through `SSL_CERT_FILE` (httpx). The application is `app_type=regular_web` with
`client_secret_basic`, the SDK's own method: `ServerClient.start_interactive_login` gives the
authorization URL, Chromium (its own CDP virtual authenticator, the certificate error of the test root
ignored) signs up on the tenant's login page, the redirect reaches the app's loopback listener, and
`complete_interactive_login` exchanges the code. Then `get_user`, `get_access_token` (a refresh once
the stored token has expired), `logout` (its URL, opened in the browser), and `MyAccountClient`
enrolling a second passkey made by a SoftPasskey authenticator (`passkey create`).
"""

import asyncio
import base64
import json
import secrets
import subprocess
import threading
import time
import urllib.parse

import warnings

import pytest

with warnings.catch_warnings():
    # The SDK's models use Pydantic 1's class-based config, which Pydantic 2 warns about.
    warnings.simplefilter("ignore")
    from auth0_server_python.auth_server.my_account_client import MyAccountClient
    from auth0_server_python.auth_server.server_client import ServerClient
    from auth0_server_python.auth_types import (
        EnrollAuthenticationMethodRequest,
        LogoutOptions,
        PasskeyAuthResponse,
        StartInteractiveLoginOptions,
        VerifyAuthenticationMethodRequest,
    )
    from auth0_server_python.error import ApiError
    from auth0_server_python.store.abstract import StateStore

from conftest import passkey_binary, until_stopped
from test_web_auth import ChromiumUser
from web_auth_app import CallbackListener, b64url, tls_tenant

CHROMIUM = pytest.mark.parametrize("engine", ["chromium"], indirect=True)
# ... and its calls of Pydantic 1's `dict` and `parse_obj`.
pytestmark = pytest.mark.filterwarnings("ignore:.*:pydantic.warnings.PydanticDeprecatedSince20")
SCOPE = "openid profile email offline_access"
MY_ACCOUNT_SCOPE = "create:me:authentication_methods read:me:authentication_methods"


class MemoryStore(StateStore):
    """The app's session and transaction store: a dict (a real app keeps it in an encrypted cookie
    or a database; the SDK asks only for get, set and delete)."""

    def __init__(self):
        super().__init__({"secret": secrets.token_hex(32)})
        self.values = {}

    async def set(self, identifier, state, remove_if_expires=False, options=None):
        self.values[identifier] = state

    async def get(self, identifier, options=None):
        return self.values.get(identifier)

    async def delete(self, identifier, options=None):
        self.values.pop(identifier, None)


class EventLoop:
    """One asyncio loop in a thread for the SDK's coroutines: its httpx clients keep connections
    across calls, which one `asyncio.run` per call would close under them; Playwright's synchronous
    API, which the browser side uses, refuses to run inside a loop."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout=30):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def loop():
    yield from until_stopped(EventLoop())


@pytest.fixture(scope="module")
def listener():
    yield from until_stopped(CallbackListener())


@pytest.fixture(scope="module")
def tenant(tmp_path_factory, listener):
    """A TLS tenant with two regular web applications and a single-page one, their callback (and
    logout URL) the listener's."""
    apps = [f"name={name},app_type=regular_web,callbacks={listener.redirect_uri},"
            f"allowed_logout_urls={listener.origin}/,token_endpoint_auth_method=client_secret_basic"
            for name in ("web", "other")]
    apps.append(f"name=spa,app_type=spa,callbacks={listener.redirect_uri},web_origins={listener.origin}")
    flags = [flag for app in apps for flag in ("--app", app)]
    started = tls_tenant(passkey_binary(), tmp_path_factory.mktemp("tls"), *flags)
    yield from until_stopped(started, "passkey tenant serve")


def application(tenant, name):
    (app,) = [a for a in tenant.start["applications"] if a["name"] == name]
    return app


@pytest.fixture
def web_app(tenant):
    app = application(tenant, "web")
    assert (app["app_type"], app["token_endpoint_auth_method"]) == ("regular_web", "client_secret_basic")
    return app


@pytest.fixture
def make_server_client(loop, tenant, listener, monkeypatch):
    """make_server_client(client_id, client_secret): the SDK's ServerClient as an app would configure
    it, trusting the tenant's test root. Its token client's kept connections are closed after the
    test (the SDK has no close of its own), so that the tenant stops without waiting for them."""
    monkeypatch.setenv("SSL_CERT_FILE", str(tenant.ca))
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(tenant.ca))  # the test's own calls (tenant.userinfo)
    made = []

    def make(client_id, client_secret):
        made.append(ServerClient(
            domain=f"localhost:{tenant.port}", client_id=client_id, client_secret=client_secret,
            redirect_uri=listener.redirect_uri, secret=secrets.token_hex(32), transaction_store=MemoryStore(),
            state_store=MemoryStore(), authorization_params={"scope": SCOPE}))
        return made[-1]
    yield make
    for client in made:
        loop.run(client._oauth.aclose())


@pytest.fixture
def server_client(make_server_client, web_app):
    return make_server_client(web_app["client_id"], web_app["client_secret"])


@pytest.fixture
def person(engine, listener):
    """A Chromium context with its own virtual authenticator, ignoring the test root's certificate
    error (WebAuthn still runs: the page's origin is localhost)."""
    listener.drain()
    user = ChromiumUser(engine.browser, conditional=False, ignore_https_errors=True)
    yield user
    user.close()


def signed_up(loop, client, person, listener, tenant, **authorization_params):
    """start_interactive_login, the person signing up on the login page, complete_interactive_login:
    the SDK's result and the address signed up with."""
    url = loop.run(client.start_interactive_login(StartInteractiveLoginOptions(
        authorization_params={"screen_hint": "signup", **authorization_params})))
    assert url.startswith(tenant.origin + "/authorize?"), url
    address = f"web-{secrets.token_hex(4)}@example.com"
    person.goto(url)
    person.press("#signup", address)
    path, query = listener.next(describe=person.describe)
    person.arrive(listener.origin)
    callback = listener.origin + path + "?" + urllib.parse.urlencode(query)
    return loop.run(client.complete_interactive_login(callback)), address


@CHROMIUM
def test_server_client_logs_in_refreshes_and_logs_out(loop, tenant, server_client, person, listener):
    result, address = signed_up(loop, server_client, person, listener, tenant)
    session = result["state_data"]
    assert session["refresh_token"] and session["id_token"]
    # The SDK keys its session by the ID token's sid (for back-channel logout), making one up if absent.
    payload = session["id_token"].split(".")[1]
    sid = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sid"]
    assert session["internal"]["sid"] == sid
    user = loop.run(server_client.get_user())
    assert user["email"] == address and user["sub"] == session["user"]["sub"]
    assert [c["userName"] for c in person.credentials()] == [address]

    first = loop.run(server_client.get_access_token())
    assert first == session["token_sets"][0]["access_token"], "an unexpired token comes from the session"
    assert tenant.userinfo(first).json()["email"] == address
    stored = server_client._state_store.values["_a0_session"]
    stored.token_sets[0].expires_at = int(time.time()) - 1  # the app's clock passed the token's expiry
    refreshed = loop.run(server_client.get_access_token())
    assert refreshed != first and tenant.userinfo(refreshed).json()["sub"] == user["sub"]
    # The SDK stores the refreshed token set under the audience it asked for (none here); its lookup
    # uses the key "default", so without an audience every later call refreshes again (SDK 1.0.0b20).
    after = server_client._state_store.values["_a0_session"]
    assert refreshed in [token_set["access_token"] for token_set in after["token_sets"]]

    # The SDK builds Auth0's /v2/logout URL (client_id, returnTo), not the discovery document's
    # /oidc/logout; the tenant serves both.
    logout = loop.run(server_client.logout(LogoutOptions(return_to=listener.origin + "/")))
    assert logout.startswith(tenant.origin + "/v2/logout?"), logout
    assert loop.run(server_client.get_user()) is None
    person.goto(logout)
    assert listener.next(describe=person.describe) == ("/", {})
    assert "passkey_session" not in person.cookies(), "the tenant's login session ended too"


@CHROMIUM
def test_my_account_client_enrolls_a_softpasskey_passkey(loop, tenant, server_client, person, listener, tmp_path):
    me = f"https://localhost:{tenant.port}/me/"
    signed_up(loop, server_client, person, listener, tenant, audience=me, scope=f"{SCOPE} {MY_ACCOUNT_SCOPE}")
    token = loop.run(server_client.get_access_token(audience=me, scope=f"{SCOPE} {MY_ACCOUNT_SCOPE}"))
    account = MyAccountClient(domain=f"localhost:{tenant.port}")

    challenge = loop.run(account.enroll_authentication_method(
        token, EnrollAuthenticationMethodRequest(type="passkey")))
    options = challenge.authn_params_public_key.model_dump(by_alias=True, exclude_none=True)
    # Made where the tenant's My Account API takes passkeys from: https://RP_ID (no page of the
    # tenant's own is involved, so the origin the page was reached at is not among them).
    origin = "https://" + tenant.start["rp_id"]
    created = subprocess.run(
        [passkey_binary(), "create", "--origin", origin, "--store", str(tmp_path / "store")],
        input=json.dumps(options).encode(), capture_output=True, timeout=60)
    assert created.returncode == 0, created.stderr.decode()
    credential = json.loads(created.stdout)
    # The SDK's PasskeyAuthResponse takes the response's string members (clientDataJSON,
    # attestationObject), as a page forwards them.
    credential["response"] = {k: v for k, v in credential["response"].items() if isinstance(v, str)}
    method = loop.run(account.verify_authentication_method(
        token, challenge.authentication_method_id, VerifyAuthenticationMethodRequest(
            auth_session=challenge.auth_session, authn_response=PasskeyAuthResponse.model_validate(credential))))
    assert method.type == "passkey" and method.key_id == credential["id"]

    listed = loop.run(account.list_authentication_methods(token)).authentication_methods
    [browsers] = person.credentials()
    assert {(m.type, m.relying_party_id) for m in listed} == {("passkey", "localhost")}
    signed_up_with = b64url(base64.b64decode(browsers["credentialId"]))  # CDP gives standard base64
    assert sorted(m.key_id for m in listed) == sorted([credential["id"], signed_up_with]), \
        "the browser's passkey and the enrolled one"


@CHROMIUM
@pytest.mark.parametrize("impostor", ["a wrong secret", "another client's secret", "a public client with a secret"])
def test_a_server_client_with_the_wrong_credentials_gets_no_session(
        loop, tenant, make_server_client, web_app, person, listener, impostor):
    """The person logs in on the page, but the app's code exchange is refused `invalid_client`
    (RFC 6749 §5.2): the SDK raises, stores no session, and the secret is in no message."""
    client_id, secret = {
        "a wrong secret": (web_app["client_id"], "not-" + web_app["client_secret"]),
        "another client's secret": (web_app["client_id"], application(tenant, "other")["client_secret"]),
        "a public client with a secret": (application(tenant, "spa")["client_id"], web_app["client_secret"]),
    }[impostor]
    client = make_server_client(client_id, secret)
    with pytest.raises(ApiError) as refused:
        signed_up(loop, client, person, listener, tenant)
    assert (refused.value.code, refused.value.cause.error) == ("token_error", "invalid_client")
    assert secret not in str(refused.value) and secret not in str(refused.value.cause.description)
    assert loop.run(client.get_user()) is None and client._state_store.values == {}
