"""The relay (issue 44): a page whose policy forbids the page bridge's `fetch` to the control server
(static/strict.html: `default-src 'self'` with Trusted Types; static/sandbox.html: sandboxed frames
of it; the local tenant's login page under `connect-src 'self'`) still signs up and logs in, in
Chromium (Playwright's exposed binding, softpasskey.playwright) and Firefox ESR (the BiDi channel,
softpasskey.bidi), the driver calling the server's `POST /bridge/relay` with the origin the browser
gives for the frame; the direct path is refused there. `passkey browser` does the same in both
engines (the extension's relay, the BiDi channel answered in process), and a page that tries to take
its relay over (forged hellos, garbage, looking for the relay) sees nothing of it. Bad input through
the relay (an origin forged in the message, garbage, a realm the relay was not installed in) is
refused, and no credential appears.
"""

import json
import time

import pytest

from conftest import passkey_binary, until_stopped
from test_passkey_browser import browse, environment  # noqa: F401 (a fixture)
from test_web_auth import BridgeUser, email, log_in, sign_up
from web_auth_app import CallbackListener, TenantServer

ENGINES = pytest.mark.parametrize("engine", ["chromium", "firefox"], indirect=True)


@pytest.fixture
def site(rp):
    """The test RP with its strict pages' URLs."""
    rp.strict = rp.origin + "/static/strict.html"
    rp.sandbox = rp.origin + "/static/sandbox.html"
    return rp


def signs_up_and_logs_in(tab, username, frame=0):
    registered = tab.run(f"rp.register({{username: {json.dumps(username)}}})", frame)
    assert registered["ok"], registered
    logged_in = tab.run("rp.login({})", frame)
    assert logged_in["ok"] and logged_in["verified"]["username"] == username, logged_in


TRUSTED_TYPES = """(() => {
  if (typeof trustedTypes === "undefined") return "no Trusted Types";
  try { document.body.innerHTML = "<i>x</i>"; return "assigned"; } catch (error) { return error.name; }
})()"""

CONNECT = """fetch(%s, {method: "POST"}).then(() => "reached", (error) => error.name)"""


@ENGINES
def test_a_strict_page_signs_up_and_logs_in_through_the_relay(open_tab, authenticator, site, server, engine):
    tab = open_tab(authenticator, site.strict, relay=True)
    # The policy holds: no connection to the control server, no string to a script sink.
    assert tab.run(CONNECT % json.dumps(server.url + "/bridge/create")) == "TypeError"
    assert tab.run(TRUSTED_TYPES) in ("TypeError", "no Trusted Types")
    if engine.name == "chromium":
        assert tab.run(TRUSTED_TYPES) == "TypeError"
    signs_up_and_logs_in(tab, "ada")
    [credential] = authenticator.credentials()
    assert credential["rpId"] == "localhost"
    assert len(site.rp.state()["authentications"]) == 1


@ENGINES
def test_without_the_relay_the_policy_refuses_the_bridge(open_tab, authenticator, site):
    tab = open_tab(authenticator, site.strict)
    registered = tab.run('rp.register({username: "mallory"})')
    assert not registered["ok"] and registered["name"] == "NotAllowedError", registered
    assert authenticator.credentials() == []


# A registration made in the page itself (no RP round trip, which an opaque origin cannot make).
CREATE_HERE = """navigator.credentials.create({publicKey: {
  rp: {id: "localhost", name: "RP"}, user: {id: new Uint8Array(8), name: "eve", displayName: "Eve"},
  challenge: new Uint8Array(32), pubKeyCredParams: [{type: "public-key", alg: -7}]}})
  .then(() => "created", (error) => error.name)"""

LOADED = "typeof rp === 'object' && document.readyState === 'complete'"


@ENGINES
def test_a_sandboxed_frame_with_its_origin_uses_the_relay_an_opaque_one_is_refused(open_tab, authenticator, site):
    tab = open_tab(authenticator, site.sandbox, relay=True)
    deadline = time.monotonic() + 10
    while True:
        try:
            if tab.run(LOADED, 1) and tab.run(LOADED, 2):
                break
        except Exception:  # a frame is not there yet
            pass
        assert time.monotonic() < deadline, "the frames did not load"
        time.sleep(0.1)
    signs_up_and_logs_in(tab, "grace", frame=1)
    assert len(authenticator.credentials()) == 1
    assert tab.run(CREATE_HERE, 2) in ("SecurityError", "NotAllowedError")
    assert len(authenticator.credentials()) == 1


# Options a page of 127.0.0.1 sends for RP ID localhost, claiming in the message to be localhost.
FORGED_OPTIONS = {"rp": {"id": "localhost", "name": "RP"}, "user": {"id": "AAAAAAAAAAA", "name": "eve",
                  "displayName": "Eve"}, "challenge": "A" * 43, "pubKeyCredParams": [{"type": "public-key", "alg": -7}]}


def bad_messages(claimed):
    """Each message and what the relay answers it (status, error; None: any refusal): a forged origin
    (refused as the page's own origin is refused for RP ID localhost), unknown routes, no body."""
    forged = {"route": "create", "origin": claimed, "topOrigin": claimed,
              "body": {"options": FORGED_OPTIONS, "requestId": "forged", "origin": claimed, "topOrigin": claimed}}
    return [(forged, (None, "SecurityError")), ({"route": "export", "body": {}}, (400, None)),
            ({"route": "create", "body": None}, (400, None)), ({"route": "create"}, (400, None))]


PLAYWRIGHT_FORGERY = """(async () => {
  const binding = globalThis.__softpasskeyRelay, answers = [];
  for (const message of %s) {
    try { answers.push(await binding(message)); } catch (error) { answers.push({thrown: error.name}); }
  }
  return answers;
})()"""


@pytest.mark.parametrize("engine", ["chromium"], indirect=True)
def test_bad_input_through_the_playwright_relay_is_refused(open_tab, authenticator, site):
    page = site.strict.replace("localhost", "127.0.0.1")
    tab = open_tab(authenticator, page, relay=True)
    messages = bad_messages(site.origin)
    sent = [json.dumps(message) for message, _ in messages] + ["garbage", 42, None, "{\"route\": 7}"]
    answers = tab.run(PLAYWRIGHT_FORGERY % json.dumps(sent))
    assert len(answers) == len(sent)
    for (message, (status, error)), answer in zip(messages, answers):
        assert answer["status"] == status if status else answer["status"] >= 400, (message, answer)
        assert error is None or answer["value"]["error"] == error, (message, answer)
    assert all(answer["status"] == 400 for answer in answers[len(messages):]), answers
    assert authenticator.credentials() == []
    assert site.rp.state()["registrations"] == []


BIDI_FORGERY = """(channel) => {
  globalThis.forgedAnswers = [];
  channel((text) => globalThis.forgedAnswers.push(JSON.parse(text)));
  for (const message of %s) channel(message);
}"""


def forged_answers(session, context, count):
    deadline = time.monotonic() + 15
    while True:
        answers = session.evaluate(context, "JSON.stringify(globalThis.forgedAnswers)")
        answers = json.loads(answers) if answers else []
        if len(answers) >= count or time.monotonic() > deadline:
            return sorted(answers, key=lambda answer: answer["id"])
        time.sleep(0.1)


@pytest.mark.parametrize("engine", ["firefox"], indirect=True)
def test_bad_input_through_the_bidi_relay_is_refused(open_tab, authenticator, site, engine):
    session = engine.session
    page = site.strict.replace("localhost", "127.0.0.1")
    tab = open_tab(authenticator, page, relay=True)
    relay = session.relays[tab.script]
    messages = bad_messages(site.origin)
    sent = [json.dumps(dict(message, id=index + 1)) for index, (message, _) in enumerate(messages)]
    sent += ["garbage", 42, json.dumps({"route": "create", "body": {}})]  # dropped: no request id
    session.send("script.callFunction", {
        "functionDeclaration": BIDI_FORGERY % json.dumps(sent), "target": {"context": tab.context},
        "arguments": [relay.channel_value], "awaitPromise": False})
    answers = forged_answers(session, tab.context, len(messages))
    assert [answer["id"] for answer in answers] == list(range(1, len(messages) + 1)), answers
    for (message, (status, error)), answer in zip(messages, answers):
        assert answer["status"] == status if status else answer["status"] >= 400, (message, answer)
        assert error is None or answer["value"]["error"] == error, (message, answer)

    # A tab the relay was not installed in, using its channel: refused.
    other = session.create_context()
    try:
        session.navigate(other, page)
        request = dict(messages[0][0], id=1, origin=None)
        session.send("script.callFunction", {
            "functionDeclaration": BIDI_FORGERY % json.dumps([json.dumps(request)]), "target": {"context": other},
            "arguments": [relay.channel_value], "awaitPromise": False})
        [answer] = forged_answers(session, other, 1)
        assert answer["status"] == 403, answer
    finally:
        session.close_context(other)
    assert authenticator.credentials() == []
    assert site.rp.state()["registrations"] == []


# The local tenant's login page under `connect-src 'self'` (no loopback exception)

@pytest.fixture(scope="module")
def strict_tenant():
    """A local tenant whose login page may connect to itself only."""
    yield from until_stopped(TenantServer(passkey_binary(), "--page-connect-src", "'self'"), "passkey tenant serve")


@pytest.fixture(scope="module")
def listener():
    yield from until_stopped(CallbackListener())


class RelayUser(BridgeUser):
    """A BridgeUser whose pages use the relay. Playwright's synchronous API answers the relay's
    binding calls only while this thread is in one of its calls, so after a press in Chromium it
    waits in one (`wait_for_url`) until the page has left the tenant for the app."""

    def press(self, button, identifier=None):
        super().press(button, identifier)
        page = getattr(self.tab, "page", None)
        if page is not None:
            page.wait_for_url(lambda url: not url.startswith(self.tenant.origin), wait_until="commit", timeout=20000)


@ENGINES
def test_the_tenants_strict_login_page_signs_up_and_logs_in_through_the_relay(
        open_tab, authenticator, strict_tenant, listener, engine):
    listener.drain()
    user = RelayUser(lambda authenticator, url, origins: open_tab(authenticator, url, origins, relay=True),
                      authenticator, strict_tenant)
    address = email(engine.name)
    signed_up = sign_up(user, strict_tenant, listener, address)
    assert signed_up.claims["email"] == address
    [credential] = authenticator.credentials()
    assert credential["rpId"] == "localhost"
    logged_in = log_in(user, strict_tenant, listener)
    assert logged_in.claims["sub"] == signed_up.claims["sub"]


# `passkey browser` through its relay

@pytest.mark.parametrize("engine", ["chromium", "firefox"])
def test_passkey_browser_signs_up_and_logs_in_on_a_strict_page(engine, site, environment, tmp_path):
    url = f"{site.strict}?auto=signup-login&username=ada"
    browse(engine, url, tmp_path / "store", environment, lambda: site.rp.auto is not None)
    state = site.rp.state()
    assert state["auto"] and state["auto"]["ok"], state
    assert len(state["registrations"]) == 1 and len(state["authentications"]) == 1, state


@pytest.mark.parametrize("engine", ["chromium", "firefox"])
def test_a_page_cannot_take_over_or_imitate_the_relay_of_passkey_browser(engine, site, environment, tmp_path):
    url = f"{site.strict}?auto=signup-login&username=grace&forge=1"
    browse(engine, url, tmp_path / "store", environment, lambda: "forge" in (site.rp.auto or {}))
    state = site.rp.state()
    assert state["auto"] and state["auto"]["ok"], state
    assert len(state["registrations"]) == 1, state
    assert state["auto"]["forge"] == {"sawPort": False, "relayVisible": False, "portMessages": 0, "forged": 4}
