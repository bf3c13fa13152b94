"""Related Origin Requests (WebAuthn L3 §5.11) and consent through real browsers.

A site on `http://shop.localhost:PORT`, listed in the `https://related.example/.well-known/webauthn`
of the RP ID it uses (related_origins.py), signs up and logs in through the page bridge (Playwright's
Chromium and Firefox's BiDi preload, answered by `passkey serve --related-origins`) and through
`passkey browser`; a site not listed gets `SecurityError` and is never asked about. `passkey browser
--consent ask` asks at the first ceremony of a site, on standard error, and reads y or n on standard
input; the answer is remembered for the next run (`--sites`).
"""

import functools
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from conftest import ENGINE_CLASSES, PLATFORM, passkey_binary
from related_origins import RelatedSite
from softpasskey.control import PasskeyServer


@pytest.fixture(scope="module")
def related(tmp_path_factory):
    site = RelatedSite(tmp_path_factory.mktemp("related"), listed=["shop", "app"])
    yield site
    site.stop()


@pytest.fixture(scope="module")
def related_server(related):
    """`passkey serve` whose ceremonies fetch related origins, through the test's proxy."""
    server = PasskeyServer(passkey_binary(), arguments=["--related-origins", "--cacert", str(related.ca)],
                           env=related.environment(os.environ))
    yield server
    assert server.stop() == 0, server.log_text()[-3000:]


@pytest.fixture(scope="module", params=["chromium", "firefox"])
def engine(request):
    """The engines that install the bridge before a page's scripts (this page starts on load)."""
    started = ENGINE_CLASSES[request.param]()
    started.name = request.param
    yield started
    started.stop()


def test_a_listed_origin_signs_up_and_logs_in_through_the_bridge(related, related_server, open_tab):
    session = related_server.new_session()
    try:
        authenticator = session.add_authenticator(**PLATFORM)
        fetched = related.fetches
        shop = related.origin("shop")
        open_tab(authenticator, shop + "/")
        assert related.outcomes(shop, 2) == [("create", None), ("get", None)]
        other = related.origin("other")
        open_tab(authenticator, other + "/")
        assert related.outcomes(other, 1) == [("create", "SecurityError")]
        assert len(authenticator.credentials()) == 1
        assert related.fetches - fetched == 3
    finally:
        session.delete()


@pytest.fixture
def environment(related):
    """This environment with the test's proxy, a private TMPDIR and no store passphrase."""
    temporary = tempfile.mkdtemp(prefix="pr-")
    env = {key: value for key, value in related.environment(os.environ).items() if not key.startswith("PASSKEY_")}
    env["TMPDIR"] = temporary
    yield env
    shutil.rmtree(temporary, ignore_errors=True)


class PasskeyBrowser:
    """`passkey browser --headless` at `url`, its standard input a pipe for the answers."""

    def __init__(self, engine, related, store, url, env, consent="ask"):
        self.process = subprocess.Popen(
            [passkey_binary(), "browser", "--headless", "--engine", engine, "--consent", consent,
             "--store", str(store), "--cacert", str(related.ca), url],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.errors = b""
        line = self.process.stdout.readline().decode()
        assert line.startswith(f"passkey browser: {engine} at {url} "), line + self.read_errors(1)

    def read_errors(self, seconds):
        """What it wrote on standard error within `seconds` (or until it ends)."""
        deadline = time.monotonic() + seconds
        stream = self.process.stderr
        while time.monotonic() < deadline:
            readable, _, _ = select.select([stream], [], [], max(0, deadline - time.monotonic()))
            if not readable:
                break
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                break
            self.errors += chunk
        return self.errors.decode()

    def wait_for_prompt(self, origin, timeout=60):
        deadline = time.monotonic() + timeout
        while "[y/n] " not in self.errors.decode() and time.monotonic() < deadline:
            self.read_errors(0.5)
        text = self.errors.decode()
        assert f"passkey browser: {origin} asks to create a passkey for related.example. " in text, text
        return text

    def answer(self, line):
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            assert self.process.wait(timeout=30) == 0, self.read_errors(1)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def sites(store, env):
    listed = subprocess.run([passkey_binary(), "browser", "--sites", "--json", "--store", str(store)],
                            capture_output=True, text=True, timeout=60, env=env)
    assert listed.returncode == 0, listed.stderr
    return {site["origin"]: site["allowed"] for site in json.loads(listed.stdout)["sites"]}


@pytest.mark.parametrize("browser_engine", ["chromium", "firefox"])
def test_passkey_browser_asks_once_per_site_and_remembers(browser_engine, related, environment, tmp_path):
    store = tmp_path / "store"
    start = functools.partial(PasskeyBrowser, browser_engine, related)
    shop, app, other = (related.origin(name) for name in ("shop", "app", "other"))

    # Yes: the listed site signs up and logs in with the RP ID of its /.well-known/webauthn.
    browser = start(store, shop + "/", environment)
    try:
        prompt = browser.wait_for_prompt(shop)
        assert prompt.count("[y/n] ") == 1 and str(store) in prompt
        browser.answer("y")
        assert related.outcomes(shop, 2) == [("create", None), ("get", None)]
    finally:
        browser.stop()
    assert sites(store, environment) == {shop: True}

    # The remembered yes: no question.
    browser = start(store, shop + "/", environment)
    try:
        assert related.outcomes(shop, 2) == [("create", None), ("get", None)]
        assert "[y/n]" not in browser.read_errors(0.5)
    finally:
        browser.stop()

    # No: NotAllowedError, remembered.
    browser = start(store, app + "/", environment)
    try:
        browser.wait_for_prompt(app)
        browser.answer("n")
        assert related.outcomes(app, 1) == [("create", "NotAllowedError")]
    finally:
        browser.stop()
    assert sites(store, environment) == {shop: True, app: False}

    # Not listed: SecurityError, never asked.
    browser = start(store, other + "/", environment)
    try:
        assert related.outcomes(other, 1) == [("create", "SecurityError")]
        assert "[y/n]" not in browser.read_errors(0.5)
    finally:
        browser.stop()

    # --consent never refuses a site not allowed before, without asking.
    forgot = subprocess.run([passkey_binary(), "browser", "--forget", app, "--store", str(store)],
                            capture_output=True, text=True, timeout=60, env=environment)
    assert (forgot.returncode, forgot.stdout) == (0, f"forgot {app}\n"), forgot.stderr
    browser = start(store, app + "/", environment, consent="never")
    try:
        assert related.outcomes(app, 1) == [("create", "NotAllowedError")]
        assert "[y/n]" not in browser.read_errors(0.5)
    finally:
        browser.stop()
    assert sites(store, environment) == {shop: True}

    listed = subprocess.run([passkey_binary(), "list", "--store", str(store), "--json"],
                            capture_output=True, text=True, timeout=60, env=environment)
    # The second signup replaced the first (the same user handle): one passkey of the RP ID.
    assert [c["rpId"] for c in json.loads(listed.stdout)["credentials"]] == ["related.example"]
