"""libfido2 (Debian `libfido2-dev`) drives `passkey device --socket`: Tests/FIDO2/fido2_socket_test.c,
compiled here with `cc … -lfido2`, opens the socket through `fido_dev_set_io_functions` and runs
getInfo, makeCredential and getAssertion (verified with `fido_cred_verify[_self]` and
`fido_assert_verify`), then ClientPIN and CredentialManagement where getInfo offers them."""

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, passkey_binary

PROGRAM = ROOT / "Tests" / "FIDO2" / "fido2_socket_test.c"


def libfido2_flags():
    """`pkg-config --cflags --libs libfido2`, or None where libfido2-dev is missing."""
    if shutil.which("pkg-config") is None:
        return None
    found = subprocess.run(["pkg-config", "--cflags", "--libs", "libfido2"], capture_output=True, text=True)
    return found.stdout.split() if found.returncode == 0 else None


# `make test` installs libfido2-dev (the Makefile's APT_PACKAGES); a bare checkout may not have it.
pytestmark = pytest.mark.skipif(libfido2_flags() is None, reason="libfido2-dev is not installed (make setup)")


class Device:
    """A running `passkey device` over a fresh store, stopped with SIGTERM."""

    def __init__(self, tmp_path: Path, *flags: str, stdin=subprocess.DEVNULL):
        env = {**os.environ, "PASSKEY_STORE": str(tmp_path / "store")}
        env.pop("PASSKEY_PASSPHRASE", None)
        self.process = subprocess.Popen(
            [passkey_binary(), "device", *flags], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env,
        )
        self.line = self.process.stdout.readline().decode()

    def stop(self):
        """SIGTERM; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=60)


@pytest.fixture
def compiled(tmp_path):
    """The C program, built with the warnings as errors."""
    binary = tmp_path / "fido2_socket_test"
    subprocess.run(
        ["cc", "-std=c11", "-D_DEFAULT_SOURCE", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(PROGRAM),
         *libfido2_flags()],
        check=True, timeout=120,
    )
    return binary


def test_libfido2_registers_and_signs_over_the_socket(tmp_path, compiled):
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path)
    try:
        assert device.line.startswith("passkey device listening on unix:" + path), device.process.stderr.read()
        run = subprocess.run([str(compiled), path], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        assert device.stop() == 0
    steps = {line.split()[1]: line for line in run.stdout.splitlines() if line.split()[:1] in (["ok"], ["skip"])}
    for step in ("get_info", "make_cred", "get_assert", "get_assert_discoverable"):
        assert steps[step].startswith("ok " + step), run.stdout
    assert "FIDO_2_0" in steps["get_info"]
    assert "fmt=packed" in steps["make_cred"], "the security-key profile's self attestation"
    # Each step either ran and passed, or getInfo does not offer what it needs (said on the line).
    for step in ("set_pin", "credman"):
        line = next(line for line in run.stdout.splitlines() if step in line)
        assert line.startswith("ok ") or "getInfo offers no" in line, run.stdout
    assert run.stdout.rstrip().endswith("done")
