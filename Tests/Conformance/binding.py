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

The session is a cookie an options answer sets (the runner sends it back with the ceremony's result), else, for
a client without cookies, the latest options call of that kind: a result is checked against the user whose
options the session asked for, and that user's one pending challenge is consumed by the result, whatever the
verdict."""

import argparse
import base64
import json
import secrets
import sys
import threading
import traceback
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Session:
    """The session cookie a request carried (`token`) and the one its answer sets (`issued`)."""

    def __init__(self, token):
        self.token = token
        self.issued = None


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


class RelyingPartyMemory:
    """Users, credentials and pending challenges, in memory, behind one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.users = {}
        self.pending = {}  # session token -> (kind, user or None, the library's state)
        self.latest = {}  # kind -> the token of the latest options call, for a client that sends no cookie

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

    def begin(self, kind: str, user, state, session: "Session"):
        """Keeps `state`, the library's for a `kind` ("registration" or "assertion") ceremony of `user` (None: a
        usernameless assertion), under a new session token the answer sets as a cookie; it replaces that user's
        pending one of that kind (one pending challenge per user)."""
        for token, (other_kind, other_user, _) in list(self.pending.items()):
            if other_kind == kind and other_user is user:
                del self.pending[token]
        session.issued = secrets.token_urlsafe(16)
        self.pending[session.issued] = (kind, user, state)
        self.latest[kind] = session.issued

    def take(self, kind: str, session: "Session"):
        """(user, state) of the `kind` ceremony of the session's cookie, else of the latest options call; its
        challenge is consumed, whatever the verdict."""
        token = session.token or self.latest.get(kind)
        entry = self.pending.pop(token, None) if token else None
        if entry is None or entry[0] != kind:
            path = "/attestation/options" if kind == "registration" else "/assertion/options"
            raise Failed(f"no {kind} in progress for this session: ask {path} first")
        return entry[1], entry[2]

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


def username(body, required: bool) -> str:
    """The options request's `username`: a non-empty string when `required`, else a string or empty."""
    name = body.get("username") or ""
    if not isinstance(name, str) or (required and not name):
        raise Failed("username is missing" if required else "username is not a string")
    return name


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


COOKIE = "conformance-session"


def serve(options, routes: dict, on_start=None):
    """Serves `routes` ({path: handler(body: dict, session: Session) -> dict}) until killed, printing `{"url": …}` once listening;
    `on_start(origin)` runs first, with the origin the server expects."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def cookie(self):
            cookies = SimpleCookie(self.headers.get("Cookie") or "")
            return cookies[COOKIE].value if COOKIE in cookies else None

        def answer(self, status: int, payload: dict, issued=None):
            data = json.dumps(payload).encode()
            self.send_response(status)
            if issued:
                self.send_header("Set-Cookie", f"{COOKIE}={issued}; Path=/; HttpOnly")
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
                session = Session(self.cookie())
                result = handler(body_object(body), session)
                self.answer(200, {"status": "ok", "errorMessage": "", **result}, session.issued)
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
