"""`passkey device --uhid`: a USB HID security key through Linux `/dev/uhid` (issue 29).

Where `/dev/uhid` exists and is writable, the device is created, the kernel gives it a hidraw node,
libfido2's `fido2-token -L` lists it by its USB IDs as it lists a key plugged in (1.12 does too;
from 1.15 on with its name), `fido2-token -I` reads its getInfo through the node, and stopping the
device unplugs it. Elsewhere (containers, CI without the uhid module) those tests skip with the
reason; what the device does without the node is tested everywhere. The VM stage (Tests/VM, `make
vm-test`) runs the first test under Debian's kernel, where it does not skip.
"""

import glob
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
    """`fido2-token -L`: one line per FIDO device, `path: vendor=0x…, product=0x… (manufacturer product)`."""
    listed = subprocess.run(["fido2-token", "-L"], capture_output=True, text=True, timeout=60)
    return listed.stdout.splitlines()


def libfido2_shows_hid_names():
    """Whether `fido2-token -L` shows a device's name when it has no USB parent (as a UHID one): libfido2
    reads the manufacturer and product strings from the USB parent device, and from 1.15 on falls back
    to the HID name (libfido2 commit 64e93db, "hidraw: fallback to HID_NAME"); older versions list
    such a device with empty strings."""
    found = subprocess.run(["pkg-config", "--modversion", "libfido2"], capture_output=True, text=True)
    version = tuple(int(part) for part in found.stdout.strip().split(".")[:2] if part.isdigit())
    return found.returncode == 0 and version >= (1, 15)


def our_hidraw_nodes():
    """The hidraw nodes whose HID device is ours: bus USB, vendor 0x1209, product 0x0001, named
    SoftPasskey (the kernel's uevent of the HID device)."""
    nodes = []
    for entry in sorted(glob.glob("/sys/class/hidraw/hidraw*")):
        try:
            uevent = open(os.path.join(entry, "device", "uevent")).read().splitlines()
        except OSError:
            continue
        if "HID_ID=0003:00001209:00000001" in uevent and "HID_NAME=SoftPasskey" in uevent:
            nodes.append("/dev/" + os.path.basename(entry))
    return nodes


def wait_for(condition, what, seconds=60):
    """Polls until `condition()` is truthy: the kernel binds hidraw and devtmpfs or udev adds the node on
    its own schedule, so this waits for the event, failing only after a generous bound."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"timed out waiting for {what}")


@pytest.mark.skipif(uhid_unusable() is not None, reason=str(uhid_unusable()))
def test_the_device_appears_to_libfido2_and_goes_away(tmp_path):
    device = Device(tmp_path, "--uhid")
    try:
        assert device.line.startswith(f"passkey device plugged in through {UHID}"), device.process.stderr.read()
        path = wait_for(lambda: [node for node in our_hidraw_nodes() if os.path.exists(node)], "a hidraw node")[0]
        listed = wait_for(lambda: [line for line in fido2_devices() if line.startswith(path + ":")], path)
        assert "vendor=0x1209, product=0x0001" in listed[0], listed
        if libfido2_shows_hid_names():
            assert "SoftPasskey" in listed[0], listed
        info = subprocess.run(["fido2-token", "-I", path], capture_output=True, text=True, timeout=60)
        assert info.returncode == 0, info.stderr
        assert "FIDO_2_0" in info.stdout
    finally:
        assert device.stop() == 0
    wait_for(lambda: not our_hidraw_nodes(), "the device to go away")


@pytest.mark.skipif(os.path.exists(UHID), reason=f"{UHID} exists here: the test above runs instead")
def test_without_uhid_the_device_says_what_to_do(tmp_path):
    device = Device(tmp_path, "--uhid")
    status = device.process.wait(timeout=60)
    error = device.process.stderr.read().decode()
    assert status == 1 and device.line == ""
    assert error.count("\n") == 1, "one line"
    assert error.startswith("device: cannot be a UHID device: open: /dev/uhid: ")
    assert "modprobe uhid" in error
