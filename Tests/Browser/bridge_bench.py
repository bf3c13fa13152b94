"""The page side of `passkey-bench bridge` (Sources/passkey-bench/Bench/BridgeBench.swift).

One page (bench/bench.html, served here on loopback at http://localhost:PORT/) runs the same
navigator.credentials loop in two contexts of Debian's Chromium, driven through Playwright (no
browser download): one with the SoftPasskey page bridge of a control server's authenticator as its
init script, one with Chromium's own virtual authenticator (CDP `WebAuthn.enable`,
`WebAuthn.addVirtualAuthenticator`: ctap2, internal, resident key, user verification), each with
one credential made first. The page measures its own rate; the two are measured alternately,
Chromium's first in each round, get's rounds before create's.

    python bridge_bench.py --bridge-script FILE --seconds S --rounds N

prints one JSON object, {"get": {"chrome": [rates], "bridge": [rates]}, "create": {…}}. Without
Chromium or Playwright it exits 2 with the reason on standard error.
"""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = HERE / "bench" / "bench.html"

# Chromium's own authenticator, configured as the control server's is: a platform authenticator
# with resident keys and user verification whose user is always present and verified.
VIRTUAL_AUTHENTICATOR = dict(protocol="ctap2", transport="internal", hasResidentKey=True, hasUserVerification=True,
                             isUserVerified=True, automaticPresenceSimulation=True)


def unavailable(reason):
    print(f"bridge_bench: {reason}", file=sys.stderr)
    sys.exit(2)


class PageServer:
    """The bench page at http://localhost:PORT/, from a thread."""

    def __init__(self):
        page = PAGE.read_bytes()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *arguments):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://localhost:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bridge-script", required=True, help="the bridge script of the control server's authenticator")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds per figure")
    parser.add_argument("--kinds", default="get,create", help="the ceremonies to measure, in order")
    arguments = parser.parse_args()

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable(f"Playwright is not installed for {sys.executable} (make setup installs "
                    "Tests/Browser/requirements.txt into .venv)")
    sys.path.insert(0, str(HERE.parents[1] / "Python"))
    from softpasskey.playwright import CHROMIUM, launch_chromium
    if not os.access(CHROMIUM, os.X_OK):
        unavailable(f"no Chromium at {CHROMIUM} (Debian's chromium package; make setup installs it)")
    script = Path(arguments.bridge_script).read_text()

    page_server = PageServer()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            pages = {}
            bridged = browser.new_context()
            bridged.add_init_script(script=script)
            pages["bridge"] = bridged.new_page()
            native = browser.new_context()
            pages["chrome"] = native.new_page()
            cdp = native.new_cdp_session(pages["chrome"])
            cdp.send("WebAuthn.enable", {"enableUI": False})
            cdp.send("WebAuthn.addVirtualAuthenticator", {"options": VIRTUAL_AUTHENTICATOR})
            for page in pages.values():
                page.goto(page_server.url, wait_until="load")
                page.evaluate("prepare()")
            rates = {}
            for kind in arguments.kinds.split(","):
                rates[kind] = {"chrome": [], "bridge": []}
                for _ in range(arguments.rounds):
                    for side in ("chrome", "bridge"):
                        rates[kind][side].append(pages[side].evaluate(
                            "([kind, seconds]) => rate(kind, seconds)", [kind, arguments.seconds]))
            browser.close()
    finally:
        page_server.stop()
    print(json.dumps(rates))


if __name__ == "__main__":
    main()
