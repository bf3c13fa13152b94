"""Chromium's own WebAuthn stack against `passkey device --uhid`: the VM stage's browser step.

Run inside the VM by Tests/VM/steps.sh (the device already plugged in, no PIN). It serves the browser
suite's relying party (Tests/Browser/rp_app.py: Flask and py_webauthn, which verifies every response:
challenge, origin, RP ID, flags, signature, counter) on localhost, and opens its page in headless
Chromium with `?auto=signup-login`: the page's own script registers a user and logs in once (one
`navigator.credentials.create()`, one `get()`), through Chromium's FIDO stack, which finds the key
over hidraw. No PIN and no UI: user verification is "discouraged" and the login names the user.

Chromium starts in one to two minutes under software emulation, and after an error status it keeps
the promise pending past its timeout, so this waits for the page's outcome at most
VM_CHROMIUM_SECONDS (default 360) and always kills the browser's whole process group.
Exit 0 when py_webauthn verified one registration and one authentication of that user.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Browser"))
from rp_app import RelyingPartyServer  # noqa: E402 (the browser suite's RP, found by path)

# The browser itself, not Debian's /usr/bin/chromium wrapper, which adds flags (its extensions, GPU
# rasterization) that only cost time here.
CHROMIUM = os.environ.get("VM_CHROMIUM", "/usr/lib/chromium/chromium")
SECONDS = int(os.environ.get("VM_CHROMIUM_SECONDS", "360"))
# Headless as root (no sandbox) in a VM without GPU or network, and none of the background work a
# profile starts (component updates, sync, model downloads): every process and task costs seconds
# under TCG. (--no-zygote and --renderer-process-limit=1 kept the page from ever loading here.)
FLAGS = os.environ.get("VM_CHROMIUM_FLAGS", " ".join([
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
    "--disable-extensions", "--disable-component-update", "--disable-background-networking", "--disable-sync",
    "--disable-default-apps", "--mute-audio", "--password-store=basic", "--disable-breakpad",
    "--disable-features=OptimizationHints,OptimizationGuideModelDownloading,OnDeviceModelService,MediaRouter,Translate",
])).split()


def main():
    started = time.monotonic()
    server = RelyingPartyServer()
    url = f"{server.origin}/?auto=signup-login&username=vm&userVerification=discouraged&residentKey=discouraged"
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    log_path = Path(os.environ.get("DEVICE", tempfile.gettempdir())) / "chromium.log"
    print(f"opening {url}", flush=True)
    with open(log_path, "wb") as log:
        browser = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", url], stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
    seen = {"registrations": 0, "authentications": 0}
    asked = False
    outcome, state = None, {"refusals": []}
    try:
        while time.monotonic() - started < SECONDS:
            with server.rp.lock:
                state = server.rp.state()
                pending = bool(server.rp.pending)
            if pending and not asked:
                # The page's script ran: what came before was Chromium starting.
                asked = True
                print(f"{time.monotonic() - started:5.1f}s the page asked for creation options", flush=True)
            for kind in seen:
                if len(state[kind]) > seen[kind]:
                    seen[kind] = len(state[kind])
                    print(f"{time.monotonic() - started:5.1f}s {kind[:-1]} verified: {json.dumps(state[kind][-1])}",
                          flush=True)
            if state["refusals"]:
                print(f"refused: {json.dumps(state['refusals'])}", flush=True)
            outcome = state["auto"]
            if outcome is not None or state["refusals"]:
                break
            if browser.poll() is not None:
                print(f"Chromium exited with {browser.returncode} before the page finished", flush=True)
                break
            time.sleep(0.5)
    finally:
        # The browser's whole session: its renderer, utility and crashpad processes too.
        try:
            os.killpg(browser.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        browser.wait()
        server.stop()
    print(f"{time.monotonic() - started:5.1f}s the page's outcome: {json.dumps(outcome)}", flush=True)
    passed = (outcome is not None and outcome.get("ok") is True and seen == {"registrations": 1, "authentications": 1}
              and not state["refusals"])
    if not passed:
        print(f"Chromium's log ({log_path}), last lines:")
        print("\n".join(log_path.read_text(errors="replace").splitlines()[-20:]))
        if outcome is None:
            print(f"no outcome within {SECONDS}s (VM_CHROMIUM_SECONDS)")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
