"""The single-page app's static server: static/spa.html (at every path but the two below, so the
redirect back to /callback loads the app again), static/spa.js, and /config.json (the tenant's
origin, the app's client ID and its redirect URI), on 127.0.0.1 and a free port, in a thread. A
POST (a `form_post` response) is queued as `(path, fields)` in `posted` and answered with the page.

The app's origin is `http://localhost:PORT`, the same site as the tenant's page (`http://localhost:T`):
the tenant's `SameSite=Lax` session cookie (plain http) goes with the hidden iframe's request. The
same server reached as `http://127.0.0.1:PORT` is another origin and another site, registered
nowhere: the foreign page of the refusal tests; and the app on another site beside a tenant over TLS,
whose session cookie is then `SameSite=None; Secure`.

    app = SinglePageAppServer()            # app.origin, app.foreign_origin
    app.config = {"tenant": ..., "client_id": ..., "redirect_uri": app.origin + "/callback"}
"""

import http.server
import json
import queue
import threading
import urllib.parse
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"


class SinglePageAppServer:
    def __init__(self):
        self.config = {}
        self.posted = queue.Queue()
        app = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                path = urllib.parse.urlsplit(self.path).path
                if path == "/favicon.ico":
                    self.send_error(404)
                    return
                if path == "/config.json":
                    self.answer(json.dumps(app.config).encode(), "application/json")
                elif path == "/spa.js":
                    self.answer((STATIC / "spa.js").read_bytes(), "text/javascript; charset=utf-8")
                else:
                    self.answer((STATIC / "spa.html").read_bytes(), "text/html; charset=utf-8")

            def do_POST(self):  # a form_post response (OAuth 2.0 Form Post Response Mode)
                length = int(self.headers.get("Content-Length") or 0)
                fields = urllib.parse.parse_qs(self.rfile.read(length).decode(), keep_blank_values=True)
                path = urllib.parse.urlsplit(self.path).path
                app.posted.put((path, {name: value[0] for name, value in fields.items()}))
                self.answer((STATIC / "spa.html").read_bytes(), "text/html; charset=utf-8")

            def answer(self, body, content_type):
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        port = self.server.server_address[1]
        self.origin, self.foreign_origin = f"http://localhost:{port}", f"http://127.0.0.1:{port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
