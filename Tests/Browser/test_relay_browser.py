"""`passkey browser` through the relay (issue 44): the strict page (strict_pages.py: `default-src
'self'` with Trusted Types) signs up and logs in by itself (`?auto=signup-login`) in Chromium (the
extension's MAIN-world relay, isolated content script and service worker) and Firefox ESR (the
preload script's BiDi channel, answered by the process); a page that tries to take the relay over
(forged hellos with its own ports, garbage messages, looking for the relay's symbol) sees nothing of
it, and its own sign-up still goes through the real one.
"""

import signal
import subprocess
import time

import pytest

from conftest import passkey_binary, until_stopped
from strict_pages import StrictRelyingPartyServer
from test_passkey_browser import environment  # noqa: F401 (a fixture)

ENGINES = ["chromium", "firefox"]


@pytest.fixture(scope="module")
def strict_rp():
    yield from until_stopped(StrictRelyingPartyServer())


@pytest.fixture
def site(strict_rp):
    with strict_rp.rp.lock:
        strict_rp.rp.reset()
    strict_rp.pages.reports.clear()
    return strict_rp


def browse(engine, url, store, env, done, timeout=90):
    """Runs `passkey browser --headless` at `url` until `done()` (or the timeout), then SIGTERM;
    answers its standard error."""
    process = subprocess.Popen(
        [passkey_binary(), "browser", "--headless", "--engine", engine, "--store", str(store), url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith(f"passkey browser: {engine} at {url} "), line + process.stderr.read()
        deadline = time.monotonic() + timeout
        while not done() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert process.poll() is None, process.stderr.read()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0, process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.stderr.read()


@pytest.mark.parametrize("engine", ENGINES)
def test_passkey_browser_signs_up_and_logs_in_on_a_strict_page(engine, site, environment, tmp_path):
    url = f"{site.strict}?auto=signup-login&username=ada"
    browse(engine, url, tmp_path / "store", environment, lambda: site.rp.auto is not None)
    state = site.rp.state()
    assert state["auto"] and state["auto"]["ok"], state
    assert len(state["registrations"]) == 1 and len(state["authentications"]) == 1, state


@pytest.mark.parametrize("engine", ENGINES)
def test_a_page_cannot_take_over_or_imitate_the_relay(engine, site, environment, tmp_path):
    url = f"{site.forge}?auto=signup-login&username=grace"
    browse(engine, url, tmp_path / "store", environment, lambda: bool(site.pages.reports))
    state = site.rp.state()
    assert state["auto"] and state["auto"]["ok"], state
    assert len(state["registrations"]) == 1, state
    [report] = site.pages.reports
    assert report == {"sawPort": False, "relayVisible": False, "portMessages": 0, "forged": 4}, report
