"""A FIDO client's view of `passkey device --socket`: python-fido2's CtapHidDevice over a
CtapHidConnection on the Unix socket (CTAPHID, each report exactly 64 bytes each way, no framing,
CTAP 2.1 §11.2), and the device process itself. Shared by the test_ctap_*.py files."""

import contextlib
import os
import signal
import subprocess

from fido2.hid import CtapHidDevice
from fido2.hid.base import CtapHidConnection, HidDescriptor

from conftest import passkey_binary

REPORT = 64
# Generous: the suite runs on two loaded cores; a test waits for answers, never for a duration.
IO_TIMEOUT = 120


class SocketConnection(CtapHidConnection):
    """CTAPHID reports over the device's socket: each one exactly 64 bytes each way."""

    def __init__(self, path):
        import socket

        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(IO_TIMEOUT)
        self.sock.connect(path)

    def read_packet(self):
        report = b""
        while len(report) < REPORT:
            chunk = self.sock.recv(REPORT - len(report))
            if not chunk:
                raise OSError("the device closed the connection")
            report += chunk
        return report

    def write_packet(self, data):
        assert len(data) == REPORT
        self.sock.sendall(data)

    def close(self):
        self.sock.close()


def open_device(path):
    """A CtapHidDevice on the socket: INIT done, a channel of its own."""
    descriptor = HidDescriptor(path, 0, 0, REPORT, REPORT, "passkey device", None)
    return CtapHidDevice(descriptor, SocketConnection(path))


@contextlib.contextmanager
def running_device(tmp_path, *flags, store=None, stop=signal.SIGTERM):
    """A `passkey device --socket` over a store (fresh unless given); yields the socket's path and
    stops the device with `stop` (SIGTERM or SIGINT), checking it exits 0 and removes the socket."""
    path = str(tmp_path / "device.sock")
    env = {**os.environ, "PASSKEY_STORE": str(store or tmp_path / "store")}
    env.pop("PASSKEY_PASSPHRASE", None)
    process = subprocess.Popen(
        [passkey_binary(), "device", "--socket", path, *flags],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("passkey device listening on unix:" + path), process.stderr.read()
        yield path
    finally:
        process.send_signal(stop)
        assert process.wait(timeout=IO_TIMEOUT) == 0
        assert not os.path.exists(path), "the socket is removed at exit"
