"""The FIDO2 server transport binding (FIDO "Server Requirements and Transport Binding Profile" §7) that
pywebauthn_server.py and fido2_server.py put in front of a relying-party library: the HTTP server, the
`status`/`errorMessage` envelope, the command line, and the relying party's memory of users, credentials and
pending challenges. Only the verification differs between the two servers; it is the library's.

    POST /attestation/options  {"username","displayName","authenticatorSelection","attestation","extensions"}
    POST /attestation/result   a RegistrationResponseJSON
    POST /assertion/options    {"username","userVerification","extensions"}
    POST /assertion/result     an AuthenticationResponseJSON

Every answer is JSON with `status` ("ok" or "failed") and `errorMessage`; a refusal or any error is a 4xx, never a
500: whatever a handler raises becomes `{"status":"failed","errorMessage":…}` with 400 (404 for an unknown path).

The session is the latest options call, as one browser session would be: a result is checked against the user
whose options were asked for last (registration and assertion each keep their own), and that user's one pending
challenge is consumed by the result, whatever the verdict."""

import argparse
import base64
import json
import sys
import threading
import traceback
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Failed(Exception):
    """A refusal: answered as 400 `{"status":"failed","errorMessage": str(self)}`."""


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def from_b64url(text) -> bytes:
    if not isinstance(text, str):
        raise Failed(f"expected a base64url string, got {type(text).__name__}")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    """What the relying party keeps of a registered credential (`record` is the library's own object)."""

    id: bytes
    owner: "User"
    sign_count: int
    record: object = None
    transports: list = field(default_factory=list)


@dataclass
class User:
    name: str
    display_name: str
    id: bytes
    credentials: dict = field(default_factory=dict)  # credential ID -> Credential
    pending_registration: object = None  # the library's state for the one registration in progress
    pending_assertion: object = None


class RelyingPartyMemory:
    """Users, credentials and pending challenges, in memory, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.users = {}
        self.registering = None  # the user whose attestation options were asked for last
        self.asserting = None  # likewise for assertion options
        self.usernameless = None  # the pending state of an assertion asked for without a username

    def user(self, name: str, display_name: str, new_id) -> User:
        """The user called `name`, created with `new_id()` as its user handle on first use."""
        if name not in self.users:
            self.users[name] = User(name=name, display_name=display_name or name, id=new_id())
        return self.users[name]

    def known_user(self, name: str) -> User:
        if name not in self.users:
            raise Failed(f"unknown user {name!r}")
        return self.users[name]

    def credential(self, credential_id: bytes) -> Credential:
        for user in self.users.values():
            if credential_id in user.credentials:
                return user.credentials[credential_id]
        raise Failed("unknown credential")

    def begin_registration(self, user: User, state):
        """`user` is the session's registering user, `state` the one registration in progress (a new one replaces it)."""
        user.pending_registration = state
        self.registering = user

    def begin_assertion(self, user, state):
        """`user` (None: usernameless) is the session's asserting user, `state` the one assertion in progress."""
        self.asserting = user
        if user is None:
            self.usernameless = state
        else:
            user.pending_assertion = state

    def take_registration(self):
        """(user, state) of the registration in progress, its challenge consumed."""
        user = self.registering
        if user is None or user.pending_registration is None:
            raise Failed("no registration in progress: ask /attestation/options first")
        state, user.pending_registration = user.pending_registration, None
        return user, state

    def take_assertion(self):
        """(user or None for a usernameless assertion, state), its challenge consumed."""
        user = self.asserting
        if user is None:
            state, self.usernameless = self.usernameless, None
        else:
            state, user.pending_assertion = user.pending_assertion, None
        if state is None:
            raise Failed("no assertion in progress: ask /assertion/options first")
        return user, state

    def add(self, credential: Credential):
        """Keeps a new credential; refuses an ID any user already has (WebAuthn L3 §7.1 step 26)."""
        for user in self.users.values():
            if credential.id in user.credentials:
                raise Failed("a credential with this ID is already registered")
        credential.owner.credentials[credential.id] = credential

    def owned_credential(self, user, response: dict) -> Credential:
        """The credential `response.rawId` names, owned by `user` (any user for a usernameless assertion), whose
        owner matches `response.userHandle` when present (WebAuthn L3 §7.2 steps 5-6)."""
        credential_id = from_b64url(response.get("rawId", response.get("id")))
        candidates = [user] if user is not None else list(self.users.values())
        found = next((u.credentials[credential_id] for u in candidates if credential_id in u.credentials), None)
        if found is None:
            raise Failed("unknown credential, or not one of this user's")
        handle = (response.get("response") or {}).get("userHandle")
        if handle:
            if from_b64url(handle) != found.owner.id:
                raise Failed("userHandle is not the credential owner's")
        elif user is None:
            raise Failed("userHandle missing from a usernameless assertion")
        return found


def body_object(body) -> dict:
    if not isinstance(body, dict):
        raise Failed("the request body is not a JSON object")
    return body


def arguments(description: str, defects=()):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rp-id", default="localhost")
    parser.add_argument("--origin", help="the expected origin (default: http://localhost:PORT)")
    parser.add_argument("--verbose", action="store_true", help="log requests and tracebacks to stderr")
    parser.add_argument("--root", help="a PEM file of attestation roots to trust for every x5c format")
    if defects:
        parser.add_argument("--defect", choices=sorted(defects), help="switch one check off")
    return parser.parse_args()


def serve(options, routes: dict, on_start=None):
    """Serves `routes` ({path: handler(body: dict) -> dict}) until killed, printing `{"url": …}` once listening;
    `on_start(origin)` runs first, with the origin the server expects."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def answer(self, status: int, payload: dict):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self):
            try:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                handler = routes.get(self.path.split("?")[0])
                if handler is None:
                    self.answer(404, {"status": "failed", "errorMessage": f"no route {self.path}"})
                    return
                try:
                    body = json.loads(raw or b"null")
                except ValueError as error:
                    raise Failed(f"the request body is not JSON: {error}")
                result = handler(body_object(body))
                self.answer(200, {"status": "ok", "errorMessage": "", **result})
            except Exception as error:  # every failure is the client's 4xx, never a 500
                message = str(error) or type(error).__name__
                if not isinstance(error, Failed):
                    message = f"{type(error).__name__}: {message}"
                    if options.verbose:
                        traceback.print_exc()
                self.answer(400, {"status": "failed", "errorMessage": message})

        def do_GET(self):
            self.answer(404, {"status": "failed", "errorMessage": "POST only"})

        def log_message(self, *args):
            if options.verbose:
                super().log_message(*args)

    server = ThreadingHTTPServer((options.host, options.port), Handler)
    port = server.server_address[1]
    origin = options.origin or f"http://localhost:{port}"
    if on_start:
        on_start(origin)
    print(json.dumps({"url": f"http://localhost:{port}"}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    sys.exit(0)
