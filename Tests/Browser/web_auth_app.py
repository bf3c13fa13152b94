"""The app's side of Web Auth, written in Python independently of the Swift client: `passkey tenant
serve` as a process, an RFC 8252 §7.3 loopback listener that receives the redirect, the authorization
request with PKCE (RFC 7636 S256), state and nonce, the code exchange, and ID-token validation with
PyJWT against the tenant's JWKS (auth0-passkey-api.md §6.5, §14.5).

    tenant = TenantServer(binary, "--page-connect-src", "http://127.0.0.1:*")
    callbacks = CallbackListener()                         # http://127.0.0.1:PORT/callback
    request = AuthorizationRequest(tenant, callbacks.redirect_uri, screen_hint="signup")
    browser.goto(request.url)                              # the login page, at http://localhost:PORT
    ...                                                    # the person signs up there
    tokens = request.exchange(request.code(callbacks.next()))
    claims = tenant.validate_id_token(tokens["id_token"], nonce=request.nonce)
"""

import base64
import hashlib
import http.server
import importlib.util
import json
import queue
import secrets
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

import jwt
import requests

from html_page import send_html

HTTP_TIMEOUT = 15
INTEROP_CONFTEST = Path(__file__).resolve().parents[1] / "Interop" / "conftest.py"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class TenantServer:
    """One `passkey tenant serve --json --db :memory:` on a free port. Its start line gives the URL
    (127.0.0.1), client ID and issuer (all of it is `start`: the applications too); a browser opens the
    page at `origin` (`http://localhost:PORT`, `https://` with `--tls-cert`), since the RP ID is
    `localhost` (README, Local tenant: the page's origin)."""

    def __init__(self, binary, *arguments, timeout=30, env=None):
        # The log goes to a file, never to a pipe nobody reads (a full pipe would stall the tenant).
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(
            [binary, "tenant", "serve", "--json", "--db", ":memory:", *arguments],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=env)
        lines = queue.Queue()

        def read():  # the start line, then whatever else it prints, so that its standard output never fills
            for line in self.process.stdout:
                lines.put(line)
            lines.put("")
        threading.Thread(target=read, daemon=True).start()
        try:
            first = lines.get(timeout=timeout)
        except queue.Empty:
            first = ""
        if not first:
            self.stop()
            raise RuntimeError(f"passkey tenant serve did not start: {self.log_text()[-2000:]}")
        self.start = start = json.loads(first)
        self.url, self.client_id, self.issuer = start["url"].rstrip("/"), start["client_id"], start["issuer"]
        split = urllib.parse.urlsplit(self.url)
        self.port = split.port
        self.origin = f"{split.scheme}://localhost:{self.port}"

    def log_text(self):
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        """SIGTERM, then the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def get(self, path, **options):
        return requests.get(self.url + path, timeout=HTTP_TIMEOUT, **options)

    def post(self, path, body):
        return requests.post(self.url + path, json=body, timeout=HTTP_TIMEOUT)

    def userinfo(self, access_token):
        return self.get("/userinfo", headers={"Authorization": f"Bearer {access_token}"})

    def validate_id_token(self, token, nonce):
        """The ID token's claims once PyJWT has checked it as Auth0.swift does: RS256 with a `kid`
        of the JWKS, `iss` https://localhost/, `aud` the client ID, `exp` and `iat`; then `nonce`,
        `auth_time` and `amr` the local tenant issues (README, Local tenant)."""
        header = jwt.get_unverified_header(token)
        assert header["alg"] == "RS256" and header.get("kid"), header
        keys = jwt.PyJWKSet.from_dict(self.get("/.well-known/jwks.json").json())
        key = keys[header["kid"]]
        claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=self.client_id,
                            issuer="https://localhost/", leeway=60,
                            options={"require": ["iss", "sub", "aud", "exp", "iat", "auth_time"]})
        assert claims["sub"], claims
        assert claims.get("nonce") == nonce, claims
        assert claims.get("amr") == ["webauthn"], claims
        assert isinstance(claims["auth_time"], int) and abs(time.time() - claims["auth_time"]) < 300, claims
        return claims


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def tls_tenant(binary, directory, *arguments, files=None, env=None):
    """A tenant served over TLS with a certificate of the interop suite's test root (its `tls_files`,
    written to `directory`; or the `files` of another tenant, which then shares its root): its domain
    is `localhost:PORT`, so that the discovery document's endpoints (https://DOMAIN/...) are where it
    listens, as a client that reads discovery needs. `env` is the process's environment (this one's by
    default). Answers the tenant; its `ca` is the test root's PEM file, its `files` all three."""
    if files is None:
        spec = importlib.util.spec_from_file_location("interop_conftest", INTEROP_CONFTEST)
        interop = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(interop)
        files = interop.tls_files(directory)
    port = free_port()
    tenant = TenantServer(binary, "--port", str(port), "--domain", f"localhost:{port}",
                          "--tls-cert", str(files["cert"]), "--tls-key", str(files["key"]), *arguments, env=env)
    tenant.ca, tenant.files = files["ca"], files
    return tenant


class CallbackListener:
    """The app's loopback redirect target (RFC 8252 §7.3) on 127.0.0.1 and a free port, in a thread:
    each request the browser sends (but a favicon) is queued as `(path, query)` and answered with a
    small page, as a native app's listener does."""

    def __init__(self):
        received = self.received = queue.Queue()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                split = urllib.parse.urlsplit(self.path)
                if split.path == "/favicon.ico":
                    self.send_error(404)
                    return
                received.put((split.path, single_values(split.query)))
                send_html(self, b"<!doctype html><title>Signed in</title><p>You can close this window.")

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.redirect_uri = self.origin + "/callback"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def next(self, timeout=20, describe=lambda: ""):
        """The next request's `(path, query)`; a failed assertion (with `describe()`, what the
        browser shows) when none comes within `timeout` seconds."""
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no request at {self.origin} within {timeout} s; the browser: {describe()}")

    def nothing(self, wait=0.5):
        """Asserts that no request came (waiting `wait` seconds for a late one)."""
        try:
            late = self.received.get(timeout=wait)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected request at {self.origin}: {late}")

    def drain(self):
        while not self.received.empty():
            self.received.get_nowait()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def single_values(query):
    values = urllib.parse.parse_qs(query, keep_blank_values=True)
    assert all(len(value) == 1 for value in values.values()), f"a parameter given twice: {query}"
    return {name: value[0] for name, value in values.items()}


class AuthorizationRequest:
    """One authorization request (spec §14.1) with a fresh PKCE verifier (32 random bytes, base64url)
    and its S256 challenge, a state and a nonce; `parameters` add to or override the defaults."""

    def __init__(self, tenant, redirect_uri, scope="openid profile email offline_access", **parameters):
        self.tenant, self.redirect_uri = tenant, redirect_uri
        self.verifier = b64url(secrets.token_bytes(32))
        self.state, self.nonce = b64url(secrets.token_bytes(32)), b64url(secrets.token_bytes(32))
        self.parameters = {
            "response_type": "code", "client_id": tenant.client_id, "redirect_uri": redirect_uri, "scope": scope,
            "state": self.state, "nonce": self.nonce,
            "code_challenge": b64url(hashlib.sha256(self.verifier.encode()).digest()),
            "code_challenge_method": "S256", **parameters}
        self.url = tenant.origin + "/authorize?" + urllib.parse.urlencode(
            {name: value for name, value in self.parameters.items() if value is not None},
            quote_via=urllib.parse.quote)

    def code(self, callback):
        """The code of a `(path, query)` callback, after checking where it came and its state."""
        path, query = callback
        assert self.redirect_uri.endswith(path), (self.redirect_uri, path)
        assert query.get("state") == self.state, f"state mismatch: {query}"
        assert "error" not in query and query.get("code"), query
        return query["code"]

    def token_request(self, code, verifier=None):
        """POST /oauth/token with Auth0.swift's JSON body (spec §14.3): the raw answer."""
        return self.tenant.post("/oauth/token", {
            "client_id": self.tenant.client_id, "grant_type": "authorization_code", "code": code,
            "code_verifier": self.verifier if verifier is None else verifier, "redirect_uri": self.redirect_uri})

    def exchange(self, code):
        """The token response of a successful exchange (spec §3.5 shape)."""
        answer = self.token_request(code)
        assert answer.status_code == 200, (answer.status_code, answer.text)
        tokens = answer.json()
        assert tokens["token_type"] == "Bearer" and tokens["access_token"] and tokens["id_token"], tokens
        assert tokens.get("refresh_token"), "offline_access was asked for"
        return tokens
