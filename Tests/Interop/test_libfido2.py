"""libfido2 (Debian `libfido2-dev`) drives `passkey device --socket`: Tests/FIDO2/fido2_socket_test.c,
compiled here with `cc … -lfido2`, opens the socket through `fido_dev_set_io_functions` and runs
getInfo, makeCredential and getAssertion (verified with `fido_cred_verify[_self]` and
`fido_assert_verify`), `fido_dev_set_pin` with a wrong PIN counted, makeCredential and getAssertion
with the PIN, and `fido_credman_*` (metadata, RPs, credentials, delete); with `u2f`, libfido2
forced to U2F (`fido_dev_force_u2f`) registers and signs through CTAPHID_MSG, and the U2F credential
then signs through CTAP2 (CTAP 2.1 §10); against `--uv`, built-in user verification without a PIN
and `fido_dev_get_uv_retry_count`."""

import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from fido2.ctap2 import Ctap2
from fido2.ctap2.pin import ClientPin

from conftest import ROOT, passkey_binary
from test_ctap_device import open_device

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
    """The C program, built with the warnings as errors by the system's C compiler, or by the clang
    that comes with Swift on a machine that has no other."""
    binary = tmp_path / "fido2_socket_test"
    compiler = shutil.which("cc") or shutil.which("clang")
    assert compiler, "no C compiler: neither cc nor the Swift toolchain's clang is on PATH"
    subprocess.run(
        [compiler, "-std=c11", "-D_DEFAULT_SOURCE", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(PROGRAM),
         *libfido2_flags()],
        check=True, timeout=120,
    )
    return binary


def test_libfido2_registers_signs_sets_a_pin_and_manages_credentials(tmp_path, compiled):
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path)
    try:
        assert device.line.startswith("passkey device listening on unix:" + path), device.process.stderr.read()
        run = subprocess.run([str(compiled), path], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        assert device.stop() == 0
    steps = {line.split()[1]: line for line in run.stdout.splitlines() if line.startswith("ok ")}
    for step in (
        "get_info", "make_cred", "get_assert", "get_assert_discoverable", "set_pin", "wrong_pin", "make_cred_pin",
        "get_assert_pin", "credman_metadata", "credman_rps", "credman_rks", "credman_delete",
    ):
        assert step in steps, run.stdout
    assert "FIDO_2_0" in steps["get_info"] and "FIDO_2_1" in steps["get_info"]
    assert "fmt=packed" in steps["make_cred"], "the security-key profile's self attestation"
    assert run.stdout.rstrip().endswith("done")

    # The PIN libfido2 set is the store's, sealed, with its retries: a restarted device still has it.
    restarted = Device(tmp_path, "--socket", path)
    try:
        assert restarted.line.startswith("passkey device listening"), restarted.process.stderr.read()
        ctap = Ctap2(open_device(path))
        assert ctap.info.options.get("clientPin") is True
        assert ClientPin(ctap).get_pin_retries()[0] == 8
    finally:
        assert restarted.stop() == 0


def test_libfido2_forced_to_u2f_registers_and_signs(tmp_path, compiled):
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path)
    try:
        assert device.line.startswith("passkey device listening on unix:" + path), device.process.stderr.read()
        run = subprocess.run([str(compiled), path, "u2f"], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        assert device.stop() == 0
    steps = {line.split()[1]: line for line in run.stdout.splitlines() if line.startswith("ok ")}
    for step in ("u2f_make_cred", "u2f_get_assert", "ctap2_get_assert_u2f_cred"):
        assert step in steps, run.stdout
    assert "fmt=fido-u2f" in steps["u2f_make_cred"]
    assert "flags=0x01" in steps["u2f_get_assert"], "UP, and nothing else U2F can say"
    assert run.stdout.rstrip().endswith("done")


@pytest.mark.parametrize("policy", ["auto", "deny"])
def test_libfido2_uses_built_in_user_verification_without_a_pin(tmp_path, compiled, policy):
    """`--uv auto`: fido_cred_set_uv/fido_assert_set_uv with no PIN get a UV token (CTAP 2.1
    §6.5.5.7.3), credProtect 3 included, and fido_dev_get_uv_retry_count reads the retries;
    `--uv deny`: the token is refused (FIDO_ERR_UV_INVALID) and a retry spent."""
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path, "--uv", policy)
    try:
        assert device.line.startswith("passkey device listening on unix:" + path), device.process.stderr.read()
        mode = "uv" if policy == "auto" else "uv-deny"
        run = subprocess.run([str(compiled), path, mode], capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    finally:
        assert device.stop() == 0
    steps = {line.split()[1]: line for line in run.stdout.splitlines() if line.startswith("ok ")}
    expected = ("get_info_uv", "uv_retries", "make_cred_uv", "get_assert_uv", "get_assert_no_uv") \
        if policy == "auto" else ("uv_denied",)
    for step in expected:
        assert step in steps, run.stdout
    assert run.stdout.rstrip().endswith("done")
