"""`--require-passphrase` from a real terminal (a pseudo-terminal): the CLI asks for the session's
passphrase without echo, checks it before any token is used, and still shows the user without it
(issue 17, the analogue of Auth0.swift's enableBiometrics). Without a terminal and without
PASSKEY_PASSPHRASE it says so in one line."""

import json
import os
import pty
import select
import subprocess
import time

import pytest

from conftest import passkey_binary

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


def in_pty(env, *args, answer=None):
    """Runs `passkey args` on a pseudo-terminal, typing `answer` when asked; (exit code, what the
    terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(passkey_binary(), [passkey_binary(), *args], env)
    shown, typed, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        shown += data
        if answer is not None and not typed and b"Session passphrase:" in shown:
            os.write(fd, answer.encode() + b"\n")
            typed = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


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
