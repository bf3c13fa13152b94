"""A client of `passkey serve` with `requests` only: start the server, then drive W3C WebDriver
virtual authenticators and ceremonies over its HTTP API."""

import json
import os
import signal
import subprocess

import requests


class PasskeyServeError(Exception):
    """A refusal: WebDriver's error shape, {"value": {"error", "message"}}."""

    def __init__(self, status, error, message):
        super().__init__(f"{error} (HTTP {status}): {message}")
        self.status, self.error, self.message = status, error, message


class PasskeyServe:
    """One `passkey serve` process and an HTTP session holding its bearer token."""

    def __init__(self, binary=None):
        binary = binary or os.environ.get("PASSKEY_BIN", "passkey")
        self.process = subprocess.Popen(
            [binary, "serve", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        start = json.loads(self.process.stdout.readline())
        self.url, self.token = start["url"], start["token"]
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {self.token}"

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=10) == 0, "passkey serve exits 0 on SIGTERM"

    def call(self, method, path, body=None):
        response = self.http.request(method, self.url + path, json=body)
        answer = response.json()
        if response.status_code >= 400:
            raise PasskeyServeError(response.status_code, answer["value"]["error"], answer["value"]["message"])
        return answer["value"]

    def new_session(self):
        return self.call("POST", "/session")["sessionId"]

    def add_authenticator(self, session, **configuration):
        return VirtualAuthenticator(self, session, self.call("POST", f"/session/{session}/webauthn/authenticator",
                                                             configuration))


class VirtualAuthenticator:
    """A virtual authenticator of one session: WebAuthn L3 §11's commands and the ceremonies."""

    def __init__(self, server, session, authenticator_id):
        self.server, self.session, self.id = server, session, authenticator_id
        self.path = f"/session/{session}/webauthn/authenticator/{authenticator_id}"

    def create(self, origin, options):
        return self.server.call("POST", self.path + "/create", {"origin": origin, "options": options})

    def get(self, origin, options):
        return self.server.call("POST", self.path + "/get", {"origin": origin, "options": options})

    def credentials(self):
        return self.server.call("GET", self.path + "/credentials")

    def set_user_verified(self, verified):
        self.server.call("POST", self.path + "/uv", {"isUserVerified": verified})
