"""Each `--defect` of pywebauthn_server.py switches off exactly its check, whatever the runner does: a
registration or assertion forged here by hand (an ES256 key, "none" or "packed" attestation), changed in one
thing, is refused by the server without defects and by every other defect, and accepted under the defect that
switches that check off. So when test_conformance.py sees the runner fail exactly the tests of a defect, the
server was exactly that defective."""

import hashlib
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Interop"))
from conftest import b64url  # noqa: E402 (Tests/Interop/conftest.py)

DEFECTS = (
    "no-signature-check", "no-origin-check", "no-challenge-check", "no-rpid-check", "no-counter-check",
    "no-up-check", "any-attestation",
)
UP, UV, AT = 0x01, 0x04, 0x40


class Authenticator:
    """One ES256 credential, its every output forged by hand (WebAuthn L3 §6.1 authenticator data, §5.8.1 client
    data, §8.2 packed, §8.7 none), each field open to change."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = os.urandom(16)

    def public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def client_data(self, kind, options, origin, challenge=None) -> bytes:
        return json.dumps({
            "type": kind, "challenge": challenge or options["challenge"], "origin": origin, "crossOrigin": False,
        }).encode()

    def register(self, options, origin, rp_id="localhost", flags=UP | UV | AT, challenge=None, bad_attestation=False):
        client_data = self.client_data("webauthn.create", options, origin, challenge)
        credential = bytes(16) + len(self.id).to_bytes(2, "big") + self.id + self.public_key()
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + bytes(4) + credential
        statement, format = {}, "none"
        if bad_attestation:  # packed self attestation whose signature is over other bytes
            format = "packed"
            statement = {"alg": -7, "sig": self.key.sign(b"not the signed bytes", ec.ECDSA(hashes.SHA256()))}
        attestation = cbor2.dumps({"fmt": format, "attStmt": statement, "authData": auth_data})
        return {
            "id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key", "clientExtensionResults": {},
            "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)},
        }

    def assert_(self, options, origin, rp_id="localhost", flags=UP | UV, challenge=None, counter=0, bad_signature=False):
        client_data = self.client_data("webauthn.get", options, origin, challenge)
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + counter.to_bytes(4, "big")
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(b"other bytes" if bad_signature else signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64url(self.id), "rawId": b64url(self.id), "type": "public-key", "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                "signature": b64url(signature),
            },
        }


def post(url, body) -> bool:
    """Whether the server accepted `body` (2xx and status "ok"); a 5xx fails the test."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())["status"] == "ok"
    except urllib.error.HTTPError as error:
        assert error.code < 500, error.read()
        answer = json.loads(error.read())
        assert answer["status"] == "failed" and answer["errorMessage"]
        return False


def options(url, path, body):
    request = urllib.request.Request(url + path, data=json.dumps(body).encode())
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def registration(url, change, user):
    authenticator = Authenticator()
    created = options(url, "/attestation/options", {"username": user, "displayName": user})
    change = dict(change)
    return authenticator, post(url + "/attestation/result", authenticator.register(created, change.pop("origin", url), **change))


def assertion(url, change, user, first_counter=0):
    authenticator, accepted = registration(url, {}, user)
    assert accepted
    if first_counter:
        requested = options(url, "/assertion/options", {"username": user})
        assert post(url + "/assertion/result", authenticator.assert_(requested, url, counter=first_counter))
    requested = options(url, "/assertion/options", {"username": user})
    change = dict(change)
    return post(url + "/assertion/result", authenticator.assert_(requested, change.pop("origin", url), **change))


# Each change and the one defect that lets it through (None: nothing does).
ORIGIN = "http://evil.localhost:1"
CHANGES = {
    "nothing": (None, lambda url, user: registration(url, {}, user)[1] and assertion(url, {}, user + "-2")),
    "registration origin": ("no-origin-check", lambda url, user: registration(url, {"origin": ORIGIN}, user)[1]),
    "assertion origin": ("no-origin-check", lambda url, user: assertion(url, {"origin": ORIGIN}, user)),
    "registration challenge": (
        "no-challenge-check", lambda url, user: registration(url, {"challenge": b64url(os.urandom(32))}, user)[1]),
    "assertion challenge": (
        "no-challenge-check", lambda url, user: assertion(url, {"challenge": b64url(os.urandom(32))}, user)),
    "registration rpIdHash": ("no-rpid-check", lambda url, user: registration(url, {"rp_id": "example.org"}, user)[1]),
    "assertion rpIdHash": ("no-rpid-check", lambda url, user: assertion(url, {"rp_id": "example.org"}, user)),
    "registration UP clear": ("no-up-check", lambda url, user: registration(url, {"flags": UV | AT}, user)[1]),
    "assertion UP clear": ("no-up-check", lambda url, user: assertion(url, {"flags": UV}, user)),
    "assertion counter regressed": (
        "no-counter-check", lambda url, user: assertion(url, {"counter": 5}, user, first_counter=10)),
    "assertion signature": ("no-signature-check", lambda url, user: assertion(url, {"bad_signature": True}, user)),
    "packed signature": ("any-attestation", lambda url, user: registration(url, {"bad_attestation": True}, user)[1]),
}


@pytest.fixture(scope="module", params=(None, *DEFECTS))
def server(request):
    defect = request.param
    command = [sys.executable, str(HERE / "pywebauthn_server.py"), "--port", "0"]
    process = subprocess.Popen(command + (["--defect", defect] if defect else []), stdout=subprocess.PIPE, text=True)
    try:
        yield defect, json.loads(process.stdout.readline())["url"]
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("change", CHANGES)
def test_a_defect_lets_through_exactly_its_change(server, change):
    defect, url = server
    lets_through, attempt = CHANGES[change]
    accepted = attempt(url, change.replace(" ", "-"))
    if change == "nothing":
        assert accepted, "the server refused an unchanged registration and assertion"
    else:
        assert accepted == (defect == lets_through), f"{change}: {'accepted' if accepted else 'refused'} under {defect}"
