"""A client of `passkey serve`'s control API (the W3C WebDriver virtual-authenticator routes of
WebAuthn L3 §11 plus SoftPasskey's own), with `requests` only.

    server = PasskeyServer()                      # starts `passkey serve --json`: the wheel's own binary,
                                                  # or $PASSKEY_BIN's (softpasskey.binary.locate)
    session = server.new_session()
    authenticator = session.add_authenticator(protocol="ctap2", transport="internal",
                                              hasResidentKey=True, hasUserVerification=True,
                                              isUserVerified=True)
    script = authenticator.bridge_script()        # for softpasskey.playwright/bidi/selenium
    events = session.events()                     # Server-Sent Events, read in a thread
    ...
    events.wait_for("credentialAdded", rpId="localhost")
    server.stop()

Every refusal is a :class:`ControlError` carrying WebDriver's error shape
(`{"value": {"error", "message"}}`) and the HTTP status.
"""

import json
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse

import requests

from softpasskey.binary import locate


class ControlError(Exception):
    """A refusal of the control server: its HTTP status, WebDriver error name and message."""

    def __init__(self, status, error, message):
        super().__init__(f"{error} (HTTP {status}): {message}")
        self.status, self.error, self.message = status, error, message


class PasskeyServer:
    """One `passkey serve --json` process (or an already running one) and an HTTP session holding
    its bearer token. The first line the server prints is `{"url", "token", …}`."""

    def __init__(self, binary=None, arguments=(), url=None, token=None, env=None):
        self.process = None
        if url is None:
            binary = locate(binary)
            # Its log goes to a file, never to a pipe nobody reads (a full pipe would stall it).
            self.log = tempfile.TemporaryFile(mode="w+")
            self.process = subprocess.Popen(
                [binary, "serve", "--json", *arguments], stdout=subprocess.PIPE, stderr=self.log,
                text=True, env=env,
            )
            first = self.process.stdout.readline()
            if not first:
                raise RuntimeError(f"passkey serve did not start: {self.log_text()}")
            start = json.loads(first)
            url, token = start["url"], start["token"]
            # Whatever it prints later is drained, so that its standard output never fills.
            threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.url, self.token = url, token
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"

    def log_text(self):
        """What the server wrote to standard error so far."""
        if self.process is None:
            return ""
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        """SIGTERM, then the exit status (0 when it stopped cleanly)."""
        self.http.close()
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        finally:
            self.process.stdout.close()
            self.log.close()

    def request(self, method, path, body=None, timeout=30):
        """The raw answer (a `requests.Response`), for tests of bad input."""
        return self.http.request(method, self.url + path, json=body, timeout=timeout)

    def call(self, method, path, body=None, timeout=30):
        """The answer's `value`, or a :class:`ControlError`."""
        response = self.request(method, path, body, timeout)
        try:
            answer = response.json()
        except ValueError as error:
            raise ControlError(response.status_code, "invalid answer", response.text[:200]) from error
        if response.status_code >= 400:
            value = answer.get("value", answer) if isinstance(answer, dict) else {}
            raise ControlError(response.status_code, value.get("error", "?"), value.get("message", ""))
        return answer["value"]

    def new_session(self):
        """A new session (WebDriver's New Session): its own authenticators and event stream."""
        return Session(self, self.call("POST", "/session", {})["sessionId"])


class Session:
    """A session of the control server: virtual authenticators and the event stream."""

    def __init__(self, server, session_id):
        self.server, self.id = server, session_id
        self.path = f"/session/{session_id}"

    def add_authenticator(self, **configuration):
        """Add Virtual Authenticator (WebAuthn L3 §11.3) with a W3C Authenticator Configuration
        (§11.2: protocol, transport, hasResidentKey, hasUserVerification, isUserConsenting,
        isUserVerified, extensions, …) or `**{"softpasskey:profile": "cdp"}`."""
        answer = self.server.call("POST", self.path + "/webauthn/authenticator", configuration)
        return Authenticator(self, answer)

    def events(self, after=0):
        """The session's events (credentialAdded, credentialAsserted, credentialUpdated,
        credentialDeleted), read from the Server-Sent Events stream in a background thread."""
        return EventStream(self.server, self.path + "/webauthn/events", after)

    def delete(self):
        """Delete Session: its authenticators and their credentials are gone."""
        self.server.call("DELETE", self.path)


class Authenticator:
    """A virtual authenticator: the commands of WebAuthn L3 §11 and the page bridge's test side."""

    def __init__(self, session, authenticator_id):
        self.session, self.server, self.id = session, session.server, authenticator_id
        self.path = f"{session.path}/webauthn/authenticator/{authenticator_id}"

    def create(self, origin, options, top_origin=None):
        """A registration ceremony run by the server's WebAuthn client (L3 §5.1.3) for `origin`:
        the `toJSON()` response to PublicKeyCredentialCreationOptionsJSON `options`."""
        body = {"origin": origin, "options": options}
        if top_origin is not None:
            body["topOrigin"] = top_origin
        return self.server.call("POST", self.path + "/create", body)

    def get(self, origin, options, top_origin=None, **pick):
        """An authentication ceremony (L3 §5.1.4) for `origin`; `user=` or `credentialId=` picks
        among several credentials."""
        body = {"origin": origin, "options": options, **pick}
        if top_origin is not None:
            body["topOrigin"] = top_origin
        return self.server.call("POST", self.path + "/get", body)

    def credentials(self):
        """Get Credentials (§11.7): every credential, without private keys."""
        return self.server.call("GET", self.path + "/credentials")

    def set_user_verified(self, verified):
        """Set User Verified (§11.10): whether the next user verifications succeed."""
        self.server.call("POST", self.path + "/uv", {"isUserVerified": verified})

    def remove(self):
        """Remove Virtual Authenticator (§11.4)."""
        self.server.call("DELETE", self.path)

    def bridge_script(self, origins=None, channel=None, relax=()):
        """The page bridge bound to this authenticator: one self-contained script to evaluate in a
        page (before its scripts or after load). With `origins`, only pages of those origins may
        use the capability it carries. It reaches the server over one WebSocket per page realm
        (the bridge socket), or with a `fetch` per command where the socket cannot be opened;
        `channel="fetch"` makes it use fetch alone. `relax` names rules of a browser the script
        then does not enforce in cross-origin frames: "permissions-policy" (`<iframe allow=…>`,
        WebAuthn L3 §5.9) and "user-activation" (create() without a click, §5.1.3)."""
        pairs = [("origin", origin) for origin in origins or []]
        if channel is not None:
            pairs.append(("channel", channel))
        pairs += [("relax", rule) for rule in ([relax] if isinstance(relax, str) else relax)]
        query = urllib.parse.urlencode(pairs)
        response = self.server.request("GET", self.path + "/bridge.js" + (f"?{query}" if query else ""))
        if response.status_code != 200:
            value = response.json().get("value", {})
            raise ControlError(response.status_code, value.get("error", "?"), value.get("message", ""))
        return response.text

    def relay(self, origins=None):
        """A relay's capability for this authenticator (:class:`Relay`): the driving process
        carries a page's bridge commands, stating the origin it read from the browser (never from
        the page), where the page's own policy forbids it to reach the server."""
        value = self.server.call("POST", self.path + "/relay", {"origins": list(origins or [])})
        return Relay(self.server, value["capability"], value["endpoint"], value["socket"])

    def conditional(self, credential_id=None, user=None, timeout=10000):
        """Pick a passkey for the oldest pending conditional `get` of the page, as a person picks one
        from autofill (waits up to `timeout` ms for one to be pending): `{requestId, origin, rpId,
        credential}`, or ControlError 404 `no such alert` when none became pending."""
        body = {"timeout": timeout}
        if credential_id is not None:
            body["credentialId"] = credential_id
        if user is not None:
            body["user"] = user
        return self.server.call("POST", self.path + "/conditional", body, timeout=timeout / 1000 + 30)


class Relay:
    """A trusted relay of the page bridge: `call(route, origin, body)` runs what a page's bridge
    sent (`create`, `get`, `abort`, `signal`) for a page of `origin`, as `POST /bridge/ROUTE` would
    for that page, and answers `(status, value)` — what the bridge's relay function gives back.
    `socket` is the bridge socket's URL, for a relay that keeps one connection."""

    def __init__(self, server, capability, endpoint, socket_url):
        self.server, self.capability, self.endpoint, self.socket = server, capability, endpoint, socket_url
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {capability}"

    def call(self, route, origin, body, top_origin=None, timeout=120):
        message = {"route": route, "origin": origin, "body": body}
        if top_origin is not None:
            message["topOrigin"] = top_origin
        response = self.http.post(self.endpoint + "/relay", json=message, timeout=timeout)
        try:
            answer = response.json()
        except ValueError:
            return 502, {"error": "invalid answer", "message": response.text[:200]}
        return response.status_code, answer.get("value") if isinstance(answer, dict) else answer

    def close(self):
        self.http.close()


class EventStream:
    """`GET /session/S/webauthn/events` (text/event-stream) read in a daemon thread. Every event is
    kept, in order, as `{"id", "type", "data"}`; :meth:`wait_for` waits for one that matches."""

    def __init__(self, server, path, after=0):
        # Its own connection, not the server's session: the stream holds it for as long as it is open.
        self.response = requests.get(
            f"{server.url}{path}?after={after}", stream=True, timeout=(30, None),
            headers={"Authorization": f"Bearer {server.token}", "Accept": "text/event-stream"},
        )
        if self.response.status_code != 200:
            raise ControlError(self.response.status_code, "events", self.response.text[:200])
        # Kept: close() shuts it down to end the read the thread is blocked in.
        self.socket = self.response.raw.connection.sock
        self.content_type = self.response.headers.get("Content-Type", "")
        self.events, self.error = [], None
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        fields = {}
        try:
            # chunk_size None: each chunk as the server sends it, so no event waits for the next.
            for raw in self.response.iter_lines(chunk_size=None):
                line = raw.decode()
                if line.startswith(":"):
                    continue
                if line == "":
                    if "data" in fields:
                        event = {"id": fields.get("id"), "type": fields.get("event", "message"),
                                 "data": json.loads(fields["data"])}
                        with self.changed:
                            self.events.append(event)
                            self.changed.notify_all()
                    fields = {}
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                fields[name] = fields[name] + "\n" + value if name == "data" and "data" in fields else value
        except Exception as error:  # the stream ended (close() shuts its socket) or broke
            self.error = error
        finally:
            with self.changed:
                self.changed.notify_all()

    def wait_for(self, event_type, timeout=10, **fields):
        """The first event of `event_type` whose data has these `fields` (e.g. `credentialId=…`),
        waiting up to `timeout` seconds; TimeoutError otherwise."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for event in self.events:
                    if event["type"] == event_type and all(event["data"].get(k) == v for k, v in fields.items()):
                        return event
                left = deadline - time.monotonic()
                if left <= 0 or (self.error is not None) or not self.thread.is_alive():
                    raise TimeoutError(f"no {event_type} {fields} among {self.events} ({self.error})")
                self.changed.wait(left)

    def close(self):
        """Ends the stream (the server keeps running)."""
        try:
            self.socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.response.close()
