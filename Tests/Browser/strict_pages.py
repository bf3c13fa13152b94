"""Pages with strict policies, served beside the test RP's own (same origin, so its page script
`static/rp.js` reaches its API) by a WSGI layer over the RP app, for the relay's tests:

    GET /strict/           static/strict.html: the RP page without inline script, under STRICT
    GET /strict/sandbox    static/sandbox.html under STRICT: two `<iframe sandbox>` of /strict/, the
                           first with `allow-same-origin`, the second an opaque origin
    GET /strict/forge      static/forge.html under STRICT: /strict/ whose first script (forge.js)
                           tries to take over or imitate the relay
    POST /strict/report    what forge.js saw, kept in `reports`

STRICT is `default-src 'self'` (so `connect-src 'self'`: the bridge's fetch to the control server
is blocked) with Trusted Types (`require-trusted-types-for 'script'`, no policy may be created).
Everything else is the RP's (rp_app.py).
"""

import json
from pathlib import Path

from rp_app import RelyingPartyServer

STATIC = Path(__file__).resolve().parent / "static"
STRICT = ("default-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'; "
          "object-src 'none'; base-uri 'none'")
PAGES = {"/strict/": "strict.html", "/strict/sandbox": "sandbox.html", "/strict/forge": "forge.html"}


class StrictPages:
    """The WSGI layer: the pages above with their policy, every other path to `app`."""

    def __init__(self, app):
        self.app = app
        self.reports = []

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") == "/strict/report" and environ.get("REQUEST_METHOD") == "POST":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            self.reports.append(json.loads(environ["wsgi.input"].read(length) or b"null"))
            start_response("204 No Content", [])
            return [b""]
        name = PAGES.get(environ.get("PATH_INFO", ""))
        if name is None:
            return self.app(environ, start_response)
        body = (STATIC / name).read_bytes()
        start_response("200 OK", [
            ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
            ("Content-Security-Policy", STRICT), ("Cache-Control", "no-store")])
        return [body]


class StrictRelyingPartyServer(RelyingPartyServer):
    """The test RP in a thread, with the strict pages."""

    def __init__(self):
        super().__init__()
        self.pages = StrictPages(self.app)
        self.server.app = self.pages
        self.strict = self.origin + "/strict/"
        self.sandbox = self.origin + "/strict/sandbox"
        self.forge = self.origin + "/strict/forge"
