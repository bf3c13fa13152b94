"""The page side of `passkey-bench bridge` (Sources/passkey-bench/Bench/BridgeBench.swift).

One page (bench/bench.html, served here on loopback at http://localhost:PORT/) runs the same
navigator.credentials loop in two browser contexts of Debian's Chromium: one with the SoftPasskey
page bridge of a control server's authenticator as a script of every new document, one with
Chromium's own virtual authenticator (CDP `WebAuthn.enable`, `WebAuthn.addVirtualAuthenticator`:
ctap2, internal, resident key, user verification), each with one credential made first. The page
measures its own rate; the two are measured alternately, Chromium's first in each round, get's
rounds before create's.

Chromium is driven over a raw DevTools protocol connection (the `websockets` package), not through
Playwright: Playwright enables the Network domain of every page, so each fetch of the bridge would
make Chromium serialize and send network events that Chromium's own authenticator, which makes no
request, never pays. Only Target, Page and Runtime are used (and WebAuthn on Chromium's side);
never Network or Fetch. Every wait is bounded and Chromium is killed on the way out.

    python bridge_bench.py --bridge-script FILE [--fetch-script FILE] --seconds S --rounds N

prints one JSON object, {"get": {"chrome": [rates], "bridge": [rates], "fetch": [rates]}, "create": {…}}
("bridge": over the bridge socket; "fetch": with --fetch-script, the same bridge with a fetch per command). Without
Chromium or the websockets package it exits 2 with the reason on standard error.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from html_page import send_html

HERE = Path(__file__).resolve().parent
PAGE = HERE / "bench" / "bench.html"
CHROMIUM = "/usr/bin/chromium"

# Chromium's own authenticator, configured as the control server's is: a platform authenticator
# with resident keys and user verification whose user is always present and verified.
VIRTUAL_AUTHENTICATOR = dict(protocol="ctap2", transport="internal", hasResidentKey=True, hasUserVerification=True,
                             isUserVerified=True, automaticPresenceSimulation=True)

# Headless Chromium as Playwright launches it, minus its automation of the network: no first-run
# UI, and no throttling of a page that is not in front (the two pages take turns).
CHROMIUM_FLAGS = ["--headless=new", "--remote-debugging-port=0", "--no-first-run", "--no-default-browser-check",
                  "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows",
                  "--disable-renderer-backgrounding", "--disable-background-networking", "--disable-sync",
                  "--disable-extensions", "--disable-component-update", "--mute-audio", "--password-store=basic",
                  "--use-mock-keychain"]

# Seconds to wait for Chromium to start, for a command, and for a page to load.
START_TIMEOUT = 30.0
COMMAND_TIMEOUT = 30.0


def unavailable(reason):
    print(f"bridge_bench: {reason}", file=sys.stderr)
    sys.exit(2)


class PageServer:
    """The bench page at http://localhost:PORT/, from a thread."""

    def __init__(self):
        page = PAGE.read_bytes()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                send_html(self, page)

            def log_message(self, *arguments):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


class DevToolsFailure(Exception):
    """Chromium answered a command with an error, threw in the page, or did not answer in time."""


class DevTools:
    """One DevTools protocol connection to the browser, with flat sessions to its pages.

    Commands are sent one at a time and their answer awaited (bounded); events are read and
    dropped (only the bridge page's Page domain sends any, on navigation)."""

    def __init__(self, url, connect):
        self.socket = connect(url, max_size=None, open_timeout=START_TIMEOUT, close_timeout=1)
        self.next_id = 0

    def send(self, method, params=None, session=None, timeout=COMMAND_TIMEOUT):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsFailure(f"{method}: no answer in {timeout:.0f} s")
            try:
                answer = json.loads(self.socket.recv(timeout=left))
            except TimeoutError:
                raise DevToolsFailure(f"{method}: no answer in {timeout:.0f} s") from None
            if answer.get("id") != self.next_id:
                continue
            if "error" in answer:
                raise DevToolsFailure(f"{method}: {answer['error'].get('message', answer['error'])}")
            return answer.get("result", {})

    def evaluate(self, session, expression, timeout=COMMAND_TIMEOUT):
        """The value of `expression` in the page, its promise awaited."""
        result = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                           session=session, timeout=timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            thrown = details.get("exception", {}).get("description") or details.get("text", "exception")
            raise DevToolsFailure(f"{expression}: {thrown}")
        return result["result"].get("value")

    def page(self, url, script=None, virtual_authenticator=None):
        """A page of its own browser context at `url` (loaded), with `script` run in every new
        document first, or Chromium's virtual authenticator; answers its target and session."""
        context = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send("Target.createTarget", {"url": "about:blank", "browserContextId": context})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        if script is not None:
            # Chromium runs a page's new-document scripts only while its Page domain is enabled.
            self.send("Page.enable", session=session)
            self.send("Page.addScriptToEvaluateOnNewDocument", {"source": script}, session=session)
        if virtual_authenticator is not None:
            self.send("WebAuthn.enable", {"enableUI": False}, session=session)
            self.send("WebAuthn.addVirtualAuthenticator", {"options": virtual_authenticator}, session=session)
        navigated = self.send("Page.navigate", {"url": url}, session=session)
        if "errorText" in navigated:
            raise DevToolsFailure(f"Page.navigate {url}: {navigated['errorText']}")
        deadline = time.monotonic() + COMMAND_TIMEOUT
        loaded = "location.href === %s && document.readyState === 'complete'" % json.dumps(url)
        while True:
            try:
                if self.evaluate(session, loaded):
                    return target, session
            except DevToolsFailure:
                pass  # the old document went away under the evaluation
            if time.monotonic() > deadline:
                raise DevToolsFailure(f"{url} did not load in {COMMAND_TIMEOUT:.0f} s")
            time.sleep(0.02)

    def close(self):
        self.socket.close()


def start_chromium(profile):
    """Headless Chromium with its own profile; answers the process and its browser's DevTools URL."""
    arguments = [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
    if os.geteuid() == 0:
        arguments.append("--no-sandbox")  # Chromium refuses to sandbox as root
    chromium = subprocess.Popen(arguments + ["about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, start_new_session=True)
    active = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        lines = active.read_text().splitlines() if active.exists() else []
        if len(lines) >= 2:
            return chromium, f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        if chromium.poll() is not None:
            error = chromium.stderr.read().decode(errors="replace").strip().splitlines()
            raise DevToolsFailure(f"Chromium exited with {chromium.returncode}: {error[-1] if error else 'no output'}")
        if time.monotonic() > deadline:
            raise DevToolsFailure(f"Chromium wrote no DevToolsActivePort in {START_TIMEOUT:.0f} s")
        time.sleep(0.02)


def stop_chromium(chromium):
    """Ends Chromium and every process it started (its own process group)."""
    if chromium.poll() is None:
        try:
            os.killpg(chromium.pid, 9)
        except ProcessLookupError:
            pass
    try:
        chromium.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    chromium.stderr.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bridge-script", required=True, help="the bridge script of the control server's authenticator")
    parser.add_argument("--fetch-script", help="the same authenticator's bridge with fetch alone (no socket)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per figure")
    parser.add_argument("--kinds", default="get,create", help="the ceremonies to measure, in order")
    arguments = parser.parse_args()

    try:
        from websockets.sync.client import connect
    except ImportError:
        unavailable(f"the websockets package is not installed for {sys.executable} (make setup installs "
                    "Tests/Browser/requirements.txt into .venv)")
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"no Chromium at {CHROMIUM} (Debian's chromium package; make setup installs it)")
    script = Path(arguments.bridge_script).read_text()
    fetch_script = Path(arguments.fetch_script).read_text() if arguments.fetch_script else None
    # A loop of `seconds`, three ceremonies to warm up, and room for a loaded machine.
    loop_timeout = COMMAND_TIMEOUT + 2 * arguments.seconds

    page_server = PageServer()
    profile = tempfile.mkdtemp(prefix="bridge-bench-chromium-")
    chromium = None
    try:
        chromium, url = start_chromium(profile)
        devtools = DevTools(url, connect)
        try:
            pages = {"chrome": devtools.page(page_server.url, virtual_authenticator=VIRTUAL_AUTHENTICATOR),
                     "bridge": devtools.page(page_server.url, script=script)}
            if fetch_script is not None:
                pages["fetch"] = devtools.page(page_server.url, script=fetch_script)
            for _, session in pages.values():
                devtools.evaluate(session, "prepare()")
            rates = {}
            for kind in arguments.kinds.split(","):
                rates[kind] = {side: [] for side in pages}
                for _ in range(arguments.rounds):
                    for side in pages:
                        target, session = pages[side]
                        devtools.send("Target.activateTarget", {"targetId": target})  # the page in front
                        rates[kind][side].append(devtools.evaluate(
                            session, f"rate({json.dumps(kind)}, {arguments.seconds!r})", timeout=loop_timeout))
        finally:
            devtools.close()
    except DevToolsFailure as failure:
        print(f"bridge_bench: {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if chromium is not None:
            stop_chromium(chromium)
        shutil.rmtree(profile, ignore_errors=True)
        page_server.stop()
    print(json.dumps(rates))


if __name__ == "__main__":
    main()
