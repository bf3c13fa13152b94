"""`--require-passphrase` from a real terminal (a pseudo-terminal): the CLI asks for the session's
passphrase without echo, checks it before any token is used, and still shows the user without it
(issue 17, the analogue of Auth0.swift's enableBiometrics). Without a terminal and without
PASSKEY_PASSPHRASE it says so in one line."""

import json
import os
import subprocess

import pytest

from conftest import in_pty, passkey_binary

PASSPHRASE = "typed-at-the-terminal"


@pytest.fixture
def terminal(tmp_path):
    """A local tenant and the environment of a user's shell pointed at it (no PASSKEY_PASSPHRASE)."""
    tenant = subprocess.Popen([passkey_binary(), "tenant", "serve", "--json", "--db", str(tmp_path / "t.sqlite")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = json.loads(tenant.stdout.readline())
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "PASSKEY_STORE": str(tmp_path / "phone"), "AUTH0_BASE_URL": start["url"],
           "AUTH0_CLIENT_ID": start["client_id"]}
    yield env
    tenant.terminate()
    tenant.wait(timeout=10)


def test_the_terminal_is_asked_without_echo_and_the_user_stays_readable(terminal):
    code, shown = in_pty(terminal, "signup", "--email", "ada@example.com", "--require-passphrase", answer=PASSPHRASE)
    assert code == 0, shown
    assert "Signed up ada@example.com" in shown and PASSPHRASE not in shown

    whoami = subprocess.run([passkey_binary(), "whoami"], env=terminal, capture_output=True, text=True, timeout=60)
    assert whoami.returncode == 0 and "ada@example.com" in whoami.stdout, whoami.stderr

    code, shown = in_pty(terminal, "token", answer="not-the-passphrase")
    assert code == 1 and "passphraseFailed" in shown, shown
    code, shown = in_pty(terminal, "token", answer=PASSPHRASE)
    assert code == 0 and "eyJ" in shown and PASSPHRASE not in shown, shown

    no_terminal = subprocess.run([passkey_binary(), "token"], env=terminal, stdin=subprocess.DEVNULL,
                                 capture_output=True, text=True, timeout=60)
    assert no_terminal.returncode == 1 and no_terminal.stdout == ""
    assert no_terminal.stderr.count("\n") == 1 and "set PASSKEY_PASSPHRASE" in no_terminal.stderr, no_terminal.stderr
