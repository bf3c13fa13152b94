"""`passkey device --uhid`: a USB HID security key through Linux `/dev/uhid` (issue 29).

Where `/dev/uhid` exists and is writable, the device is created and libfido2's `fido2-token -L`
finds it as it finds a key plugged in, `fido2-token -I` reads its getInfo through the kernel's hidraw
node, and stopping the device unplugs it. Elsewhere (containers, CI without the uhid module) those
tests skip with the reason; what the device does without the node is tested everywhere.
"""

import os
import shutil
import subprocess
import time

import pytest

from test_libfido2 import Device

UHID = "/dev/uhid"


def uhid_unusable():
    """Why this machine cannot create a UHID device, or None."""
    if not os.path.exists(UHID):
        return f"{UHID} does not exist here (no uhid module: modprobe uhid, or a container without the node)"
    if not os.access(UHID, os.R_OK | os.W_OK):
        return f"{UHID} is not readable and writable by this user (see the README, 'As a FIDO device')"
    if shutil.which("fido2-token") is None:
        return "fido2-token is not installed (Debian fido2-tools)"
    return None


def fido2_devices():
    """`fido2-token -L`: one line per FIDO device, `path: vendor:product (manufacturer product)`."""
    listed = subprocess.run(["fido2-token", "-L"], capture_output=True, text=True, timeout=60)
    return listed.stdout.splitlines()


def wait_for(condition, what, seconds=60):
    """Polls until `condition()` is truthy: the kernel binds hidraw and udev adds the node on its own
    schedule, so this waits for the event, failing only after a generous bound."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


@pytest.mark.skipif(uhid_unusable() is not None, reason=str(uhid_unusable()))
def test_the_device_appears_to_libfido2_and_goes_away(tmp_path):
    before = set(fido2_devices())
    device = Device(tmp_path, "--uhid")
    try:
        assert device.line.startswith(f"passkey device plugged in through {UHID}"), device.process.stderr.read()
        # `path: vendor=0x1209, product=0x0001 (manufacturer product)`: the product string comes from
        # the USB parent a UHID device lacks, so the IDs identify it; the new line is ours.
        ours = wait_for(
            lambda: [line for line in set(fido2_devices()) - before if "vendor=0x1209, product=0x0001" in line],
            "fido2-token -L to list the new device",
        )
        path = ours[0].split(": ")[0]
        info = subprocess.run(["fido2-token", "-I", path], capture_output=True, text=True, timeout=60)
        assert info.returncode == 0, info.stderr
        assert "FIDO_2_0" in info.stdout
    finally:
        assert device.stop() == 0
    wait_for(lambda: path not in "\n".join(fido2_devices()), "the device to go away")


@pytest.mark.skipif(os.path.exists(UHID), reason=f"{UHID} exists here: the test above runs instead")
def test_without_uhid_the_device_says_what_to_do(tmp_path):
    device = Device(tmp_path, "--uhid")
    status = device.process.wait(timeout=60)
    error = device.process.stderr.read().decode()
    assert status == 1 and device.line == ""
    assert error.count("\n") == 1, "one line"
    assert error.startswith("device: cannot be a UHID device: open: /dev/uhid: ")
    assert "modprobe uhid" in error
