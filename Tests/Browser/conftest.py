"""Fixtures of the browser suite: one `passkey serve` and one relying party for the run, one browser
per engine per module (Chromium through Playwright, Firefox ESR through WebDriver BiDi, WebKitGTK
through Selenium), and per test a fresh control session, authenticator and page ("tab") with that
authenticator's bridge installed by the engine's driver from the `softpasskey` package.

A tab runs JavaScript in the page (or in its iframe) and answers the value as Python: the page's
`rp` functions (static/rp.js) resolve to plain objects, so every engine returns the same data.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from softpasskey.control import PasskeyServer

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from federation import Federation  # noqa: E402
from rp_app import RelyingPartyServer  # noqa: E402

ROOT = HERE.parents[1]
ENGINES = ["chromium", "firefox", "webkit"]


def passkey_binary():
    binary = os.environ.get("PASSKEY_BIN")
    if not binary:
        binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                                text=True).stdout.strip() + "/passkey"
    return binary


@pytest.fixture(scope="session")
def passkey():
    """Runs the CLI: passkey(*args) -> CompletedProcess (text)."""
    binary = passkey_binary()
    return lambda *args: subprocess.run([binary, *args], capture_output=True, text=True, timeout=60)


def until_stopped(running, name=None):
    """Yields a server (for a fixture), then stops it. A process, named `name`, must exit 0 on
    SIGTERM, else the failure shows the end of what it wrote; a server in a thread just stops."""
    yield running
    if name is None:
        running.stop()
        return
    log = running.log_text()
    assert running.stop() == 0, f"{name} exits 0 on SIGTERM; it wrote: {log[-3000:]}"


@pytest.fixture(scope="session")
def server():
    """One `passkey serve --json` for the run."""
    yield from until_stopped(PasskeyServer(passkey_binary()), "passkey serve")


@pytest.fixture(scope="session")
def federation(tmp_path_factory):
    """Tenant A with upstream connections to tenant B, the passkey provider (federation.py)."""
    yield from until_stopped(Federation(passkey_binary(), tmp_path_factory.mktemp("federation")), "the two tenants")


@pytest.fixture(scope="session")
def relying_party():
    """The test RP, served in a thread at http://localhost:PORT (and reachable as 127.0.0.1:PORT)."""
    yield from until_stopped(RelyingPartyServer())


@pytest.fixture
def rp(relying_party):
    """The RP's memory, reset and with its default configuration for each test."""
    with relying_party.rp.lock:
        relying_party.rp.reset()
        relying_party.rp.allowed_top_origins = []
        relying_party.rp.trust_roots = []
    return relying_party


@pytest.fixture
def session(server):
    """A fresh control session (its own authenticators and events), deleted after the test."""
    created = server.new_session()
    yield created
    created.delete()


PLATFORM = dict(protocol="ctap2", transport="internal", hasResidentKey=True, hasUserVerification=True,
                isUserVerified=True, extensions=["prf", "largeBlob"])


@pytest.fixture
def authenticator(session):
    """A platform authenticator: internal transport, resident keys, UV, prf and largeBlob."""
    return session.add_authenticator(**PLATFORM)


# Engines. Each has open(authenticator, origins, relay=False) -> Tab; a Tab has goto(url), run(expression, frame=0), close().
# `run` evaluates an expression (a promise is awaited) and answers JSON.stringify of its value, parsed.

def wrapped(expression):
    return f"(async () => JSON.stringify(await ({expression})))()"


class ChromiumEngine:
    """Playwright with /usr/bin/chromium; a context per tab, the bridge as its init script."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        from softpasskey.playwright import launch_chromium
        self.playwright = sync_playwright().start()
        self.browser = launch_chromium(self.playwright)

    def open(self, authenticator, origins=None, relay=False):
        from softpasskey.playwright import install
        # As Firefox's session does, the context accepts the test root's certificates (TLS tenants).
        context = self.browser.new_context(ignore_https_errors=True)
        install(context, authenticator, origins, relay=relay)
        return ChromiumTab(context)

    def stop(self):
        self.browser.close()
        self.playwright.stop()


class ChromiumTab:
    def __init__(self, context):
        self.context, self.page = context, context.new_page()

    def goto(self, url):
        self.page.goto(url, wait_until="load")

    def run(self, expression, frame=0):
        target = self.page.main_frame if frame == 0 else self.page.main_frame.child_frames[frame - 1]
        return json.loads(target.evaluate(wrapped(expression)))

    def close(self):
        self.context.close()


class FirefoxEngine:
    """firefox-esr over WebDriver BiDi; a user context and tab per test, the bridge as a preload
    script of that user context (so in the popups and tabs its pages open too)."""

    def __init__(self):
        from softpasskey.bidi import Firefox
        self.firefox = Firefox()
        self.session = self.firefox.session

    def open(self, authenticator, origins=None, relay=False):
        from softpasskey.bidi import install
        user_context = self.session.create_user_context()
        context = self.session.create_context(user_context=user_context)
        script = install(self.session, authenticator, user_contexts=[user_context], origins=origins, relay=relay)
        return FirefoxTab(self.session, context, script, user_context)

    def stop(self):
        self.firefox.stop()


class FirefoxTab:
    def __init__(self, session, context, script, user_context):
        self.session, self.context, self.script, self.user_context = session, context, script, user_context

    def goto(self, url):
        self.session.navigate(self.context, url)

    def run(self, expression, frame=0):
        # With user activation, as Playwright's evaluate has (a cross-origin frame's create() needs it).
        target = self.session.frames(self.context)[frame]
        return json.loads(self.session.evaluate(target, wrapped(expression), user_activation=True))

    def close(self):
        self.session.remove_preload_script(self.script)
        self.session.remove_user_context(self.user_context)


class WebKitEngine:
    """MiniBrowser through WebKitWebDriver (Selenium); one window, the bridge evaluated after each load."""

    def __init__(self):
        from softpasskey.selenium import webkit_driver
        self.driver = webkit_driver()
        self.driver.set_script_timeout(60)

    def open(self, authenticator, origins=None, relay=False):
        from softpasskey.selenium import install
        assert not relay, "Selenium's WebKit driver has no channel into the page for the relay"
        return WebKitTab(self.driver, install(self.driver, authenticator, origins))

    def stop(self):
        self.driver.quit()


class WebKitTab:
    def __init__(self, driver, bridge):
        self.driver, self.bridge = driver, bridge

    def goto(self, url):
        self.bridge.get(url)

    def run(self, expression, frame=0):
        from softpasskey.selenium import activate
        driver = self.driver
        driver.switch_to.default_content()
        if frame:
            driver.switch_to.frame(frame - 1)
            # A click first, as Playwright's evaluate has a user gesture (a cross-origin frame's create() needs it).
            activate(driver)
        try:
            answer = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];\n"
                f"{wrapped(expression)}.then(done, (e) => done(JSON.stringify({{driverError: String(e)}})));")
        finally:
            driver.switch_to.default_content()
        return json.loads(answer)

    def close(self):
        self.driver.get("about:blank")


ENGINE_CLASSES = {"chromium": ChromiumEngine, "firefox": FirefoxEngine, "webkit": WebKitEngine}


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    """One browser of each engine for the module's tests."""
    started = ENGINE_CLASSES[request.param]()
    started.name = request.param
    yield started
    started.stop()


@pytest.fixture
def open_tab(engine):
    """open_tab(authenticator, url, origins=None, relay=False) -> a Tab at url with the authenticator's
    bridge (its requests through the driver's relay with `relay`)."""
    tabs = []

    def opener(authenticator, url, origins=None, relay=False):
        tab = engine.open(authenticator, origins, relay)
        tabs.append(tab)
        tab.goto(url)
        return tab

    yield opener
    for tab in tabs:
        tab.close()


@pytest.fixture
def tab(open_tab, authenticator, rp):
    """The RP page (http://localhost:PORT/) with the platform authenticator's bridge."""
    return open_tab(authenticator, rp.origin + "/")
