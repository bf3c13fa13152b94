"""`passkey browser --headless` drives the relying party's page in Chromium and Firefox ESR.

The page's own JavaScript signs up and logs in (`?auto=signup-login`), answered by the page bridge
of the in-process control server over a store directory; py_webauthn verifies both. The passkey is
then in that store: `passkey list` shows it and `passkey get` logs in with it again, verified by the
same RP (its counter included). SIGTERM closes the browser, exits 0, and leaves no temporary profile.
A missing engine is one line naming its Debian package.
"""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request

import pytest

from conftest import passkey_binary

ENGINES = {"chromium": "chromium", "firefox": "firefox-esr"}


def post(origin, path, body):
    request = urllib.request.Request(origin + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.fixture
def environment():
    """This environment, with a private TMPDIR (to see that the profile goes; short, as Chromium's
    singleton socket path must be) and no store passphrase."""
    temporary = tempfile.mkdtemp(prefix="pb-")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PASSKEY_")}
    env["TMPDIR"] = temporary
    yield env
    shutil.rmtree(temporary, ignore_errors=True)


def browse(engine, url, store, env, done, timeout=90):
    """Runs `passkey browser --headless` at `url` over `store` until `done()` (`timeout` seconds at
    most), then sends SIGTERM: it must have printed its line, still run, and exit 0."""
    process = subprocess.Popen(
        [passkey_binary(), "browser", "--headless", "--consent", "always", "--engine", engine, "--store", str(store),
         url],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith(f"passkey browser: {engine} at {url} "), line + process.stderr.read()
        assert "SIGTERM" in line and str(store) in line
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


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_passkey_made_in_the_browser_is_in_the_store(engine, rp, passkey, environment, tmp_path):
    store = tmp_path / "store"
    url = f"{rp.origin}/?auto=signup-login&username=ada"
    env = environment
    browse(engine, url, store, env, lambda: rp.rp.auto is not None)
    assert not [name for name in os.listdir(env["TMPDIR"]) if name.startswith("passkey-browser-")]

    state = rp.rp.state()
    assert state["auto"] and state["auto"]["ok"], state
    assert len(state["registrations"]) == 1 and len(state["authentications"]) == 1, state
    credential_id = state["users"]["ada"]["credentialIds"][0]

    listed = passkey("list", "--store", str(store), "--json")
    assert listed.returncode == 0, listed.stderr
    credentials = json.loads(listed.stdout)["credentials"]
    assert [(c["id"], c["rpId"], c["userName"]) for c in credentials] == [(credential_id, "localhost", "ada")]

    options = post(rp.origin, "/api/login/options", {"username": "ada"})
    got = subprocess.run([passkey_binary(), "get", "--store", str(store), "--origin", rp.origin, "--json"],
                         input=json.dumps(options), capture_output=True, text=True, timeout=60, env=env)
    assert got.returncode == 0, got.stderr
    verified = post(rp.origin, "/api/login/verify", json.loads(got.stdout))
    assert verified["verified"]["username"] == "ada", verified
    assert len(rp.rp.state()["authentications"]) == 2


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_missing_engine_names_its_debian_package(engine, environment, tmp_path):
    env = dict(environment, PATH=str(tmp_path))
    result = subprocess.run(
        [passkey_binary(), "browser", "--headless", "--engine", engine, "--store", str(tmp_path / "store"),
         "http://localhost:9/"], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert f"apt-get install {ENGINES[engine]}" in result.stderr
    assert not (tmp_path / "store").exists()
