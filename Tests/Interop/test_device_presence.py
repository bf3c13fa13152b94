"""`passkey device --presence auto|deny|ask`: how the device learns the user is present (CTAP 2.1
§6.1.2 step 13), seen by python-fido2 over the socket; `ask` questions on standard error and reads
the answer on standard input, as a touch on a real key."""

import hashlib
import os
import select
import subprocess
import threading
import time

import pytest
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2

from test_ctap_device import open_device
from test_libfido2 import Device

RP = {"id": "example.org", "name": "Example"}
USER = {"id": b"user-ada", "name": "ada"}
ES256 = [{"type": "public-key", "alg": -7}]


def make_credential(path):
    return Ctap2(open_device(path)).make_credential(hashlib.sha256(b"registration").digest(), RP, USER, ES256)


def read_until(stream, end, seconds=60):
    """What `stream` gives until it ends with `end` (read unbuffered, so select sees every byte),
    within a generous bound."""
    shown = b""
    deadline = time.monotonic() + seconds
    while not shown.endswith(end):
        ready, _, _ = select.select([stream], [], [], max(0, deadline - time.monotonic()))
        byte = os.read(stream.fileno(), 1) if ready else b""
        if not byte:
            pytest.fail(f"no {end!r} on standard error; shown: {shown!r}")
        shown += byte
    return shown.decode()


def test_deny_refuses_every_request_that_needs_presence(tmp_path):
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path, "--presence", "deny")
    try:
        assert device.line.startswith("passkey device listening")
        with pytest.raises(CtapError) as refused:
            make_credential(path)
        assert refused.value.code == CtapError.ERR.OPERATION_DENIED
        assert Ctap2(open_device(path)).get_info().versions, "requests without presence still answer"
    finally:
        assert device.stop() == 0


def answered(device, ask, answer):
    """Runs `ask` while the device asks its question on standard error, answers it with `answer`;
    the question, and what `ask` returned or the CtapError it raised."""
    results = []

    def run():
        try:
            results.append(ask())
        except CtapError as error:
            results.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    question = read_until(device.process.stderr, b"[y/N] ")
    device.process.stdin.write(answer)
    device.process.stdin.flush()
    thread.join(timeout=120)
    return question, results[0]


def test_ask_waits_for_the_answer_on_standard_input(tmp_path):
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path, "--presence", "ask", stdin=subprocess.PIPE)
    try:
        assert device.line.startswith("passkey device listening")
        question, made = answered(device, lambda: make_credential(path), b"y\n")
        assert question.endswith("passkey device: allow makeCredential for example.org? [y/N] ")
        assert made.auth_data.is_user_present()
        _, refused = answered(device, lambda: make_credential(path), b"n\n")
        assert isinstance(refused, CtapError) and refused.code == CtapError.ERR.OPERATION_DENIED
    finally:
        assert device.stop() == 0


def test_uv_ask_verifies_the_user_on_standard_input(tmp_path):
    """`--uv ask`: the device's built-in user verification is the same terminal's question."""
    path = str(tmp_path / "device.sock")
    device = Device(tmp_path, "--socket", path, "--uv", "ask", stdin=subprocess.PIPE)
    try:
        assert device.line.startswith("passkey device listening")
        question, made = answered(device, lambda: Ctap2(open_device(path)).make_credential(
            hashlib.sha256(b"registration").digest(), RP, USER, ES256, options={"rk": True, "uv": True}), b"y\n")
        assert question.endswith("passkey device: is it you, for makeCredential for example.org? [y/N] ")
        assert made.auth_data.is_user_verified()
    finally:
        assert device.stop() == 0
