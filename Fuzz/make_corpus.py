"""Builds the seed corpus of each fuzz target (Fuzz/Corpus/<target>/) from the project's vectors:
the CBOR, authenticator data, client data, JSON, COSE keys and certificates they carry; and for the
CTAP targets, the conversations a FIDO client has with a key (CTAP 2.1 §6, §11.2), in the input
formats Fuzz/Sources/webauthn-fuzz/CTAPFuzz.swift reads.
Run from the repository root with the test venv: .venv/bin/python Fuzz/make_corpus.py"""

import base64
import hashlib
import json
import re
from pathlib import Path

import cbor2

VECTORS = Path("Vectors")
CORPUS = Path("Fuzz/Corpus")


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def seeds():
    """(target, bytes) for every piece of every vector."""
    for path in sorted((VECTORS / "w3c").glob("*.json")):
        vector = json.loads(path.read_text())
        pem = vector.get("derived", {}).get("attestation_ca_cert_pem")
        if pem:
            yield "x509", base64.b64decode("".join(l for l in pem.splitlines() if not l.startswith("-----")))
        for ceremony in ("registration", "authentication"):
            part = vector.get(ceremony) or {}
            expected = part.get("expected", {})
            for key, target in (("attestationObject_hex", "attestation-object"),
                                ("authenticatorData_hex", "authenticator-data"),
                                ("clientDataJSON_hex", "client-data"),
                                ("credentialPublicKey_cose_hex", "cose-key")):
                if key in expected:
                    yield target, bytes.fromhex(expected[key])
            for key in ("registration_response_json", "authentication_response_json"):
                if key in part:
                    yield "response-json", json.dumps(part[key]).encode()
    for path in sorted((VECTORS / "realworld").glob("*.json")):
        response = json.loads(path.read_text())["response"]
        yield "response-json", json.dumps(response).encode()
        inner = response["response"]
        yield "client-data", b64url(inner["clientDataJSON"])
        if "attestationObject" in inner:
            yield "attestation-object", b64url(inner["attestationObject"])
        if "authenticatorData" in inner:
            yield "authenticator-data", b64url(inner["authenticatorData"])
    for path in sorted((VECTORS / "pywebauthn-options").glob("*.json")):
        yield "options-json", path.read_bytes()
    yield "metadata", (VECTORS / "mds" / "blob.jwt").read_bytes()
    for path in sorted((VECTORS / "cose").glob("*.json")):
        for match in re.finditer(r'"([0-9a-f]{40,})"', path.read_text()):
            yield "cose-key", bytes.fromhex(match.group(1))


def expanded():
    """The seeds, plus what an attestation object holds: CBOR, authData, the COSE key, x5c."""
    for target, data in seeds():
        yield target, data
        if target != "attestation-object":
            continue
        yield "cbor", data
        try:
            obj = cbor2.loads(data)
        except Exception:
            continue
        yield "authenticator-data", obj.get("authData", b"")
        for der in (obj.get("attStmt") or {}).get("x5c", []):
            yield "x509", der


CLIENT_DATA_HASH = hashlib.sha256(b"fuzz").digest()
MAKE_CREDENTIAL = bytes([0x01]) + cbor2.dumps({
    1: CLIENT_DATA_HASH, 2: {"id": "example.org", "name": "Example"},
    3: {"id": b"user", "name": "ada", "displayName": "Ada"}, 4: [{"alg": -7, "type": "public-key"}],
    6: {"credProtect": 2, "hmac-secret": True, "credBlob": b"blob", "largeBlobKey": True},
    7: {"rk": True},
}, canonical=True)
GET_ASSERTION = bytes([0x02]) + cbor2.dumps({1: "example.org", 2: CLIENT_DATA_HASH, 5: {"up": True}}, canonical=True)


def ctap(command, parameters=None):
    return bytes([command]) + (b"" if parameters is None else cbor2.dumps(parameters, canonical=True))


def ctap_commands():
    """What a client sends, one conversation per seed: getInfo, credentials made then asserted,
    ClientPIN, credential management, large blobs, config, Reset, and a few malformed messages."""
    yield [ctap(0x04)]
    yield [MAKE_CREDENTIAL, GET_ASSERTION, ctap(0x08)]
    yield [MAKE_CREDENTIAL, ctap(0x02, {1: "example.org", 2: CLIENT_DATA_HASH, 3: [
        {"type": "public-key", "id": bytes(16)}], 5: {"up": False}})]
    yield [ctap(0x06, {1: 2, 2: 1}), ctap(0x06, {1: 2, 2: 2}), ctap(0x06, {1: 1, 2: 2})]
    yield [ctap(0x06, {1: 2, 2: 3, 3: {1: 2, 3: -25, -1: 1, -2: bytes(32), -3: bytes(32)}, 4: bytes(32),
                       5: bytes(64)})]
    yield [MAKE_CREDENTIAL, ctap(0x0A, {1: 1, 3: 2, 4: bytes(32)}), ctap(0x0A, {1: 2})]
    yield [ctap(0x0C, {1: 1024, 3: 0}), ctap(0x0C, {2: bytes(17), 3: 0, 4: 17})]
    yield [ctap(0x0D, {1: 2, 3: 2, 4: bytes(32)})]
    yield [MAKE_CREDENTIAL, ctap(0x07), GET_ASSERTION, ctap(0x0B)]
    yield [bytes([0x01, 0xA0]), bytes([0x02]), bytes([0x99]), bytes([0x04, 0x00])]


def framed(messages):
    return b"".join(len(message).to_bytes(2, "big") + message for message in messages)


def hid_message(channel, command, payload):
    """The records of one CTAPHID message (channel selector, then the report after the channel)."""
    records = [bytes([channel, 3 + len(payload[:57]), 0x80 | command, len(payload) >> 8, len(payload) & 0xFF])
               + payload[:57]]
    for sequence, start in enumerate(range(57, len(payload), 59)):
        chunk = payload[start:start + 59]
        records.append(bytes([channel, 1 + len(chunk), sequence]) + chunk)
    return records


def hid_conversations():
    """Reports as hosts send them: INIT, PING, WINK, CBOR, LOCK, CANCEL, two channels at once,
    packets out of order, reports that are not 64 bytes."""
    init = hid_message(0, 0x06, b"12345678")
    yield init + hid_message(1, 0x01, b"ping")
    yield init + hid_message(1, 0x01, bytes(range(200)))
    yield init + hid_message(1, 0x10, ctap(0x04))
    yield init + hid_message(1, 0x10, MAKE_CREDENTIAL) + hid_message(1, 0x10, GET_ASSERTION)
    two = init + hid_message(0, 0x06, b"abcdefgh")
    long_ping = hid_message(1, 0x01, bytes(150))
    yield two + long_ping[:1] + hid_message(2, 0x01, b"busy?") + long_ping[1:]
    yield two + hid_message(1, 0x04, b"\x05") + hid_message(2, 0x01, b"locked?")
    yield init + long_ping[:1] + long_ping[2:] + long_ping[1:2]
    yield init + hid_message(1, 0x08, b"") + hid_message(1, 0x11, b"") + hid_message(1, 0x03, b"\x00")
    yield init + hid_message(1, 0x10, MAKE_CREDENTIAL)[:1] + hid_message(1, 0x06, b"resync!!")
    yield init + [bytes([0x81, 5, 0x81, 0, 1, 0, 0]), bytes([0x07, 8, 0, 0, 0, 9, 0x81, 0, 1, 0])]
    # U2F over CTAPHID_MSG (FIDO U2F Raw Message Formats v1.2): VERSION short and extended, REGISTER,
    # AUTHENTICATE with each P1 and a key handle of its own or none, then APDUs cut short or of another class.
    parameters = bytes(range(32)) + bytes(range(32, 64))
    register = apdu(0x01, 0x03, parameters)
    yield init + hid_message(1, 0x03, bytes([0, 3, 0, 0])) + hid_message(1, 0x03, apdu(0x03, 0, b""))
    yield init + hid_message(1, 0x03, register) + hid_message(1, 0x03, register)
    for p1 in (0x07, 0x03, 0x08):
        yield init + hid_message(1, 0x03, register) + hid_message(1, 0x03, apdu(0x02, p1, parameters + b"\x04abcd"))
    yield init + hid_message(1, 0x03, bytes([0, 1, 3, 0, 0, 0, 64]) + parameters[:10])
    yield init + hid_message(1, 0x03, bytes([0x80, 3, 0, 0])) + hid_message(1, 0x03, bytes([0, 2, 0x07, 0, 5]) + bytes(5))


def apdu(ins, p1, data):
    """An extended-length command APDU as python-fido2's Ctap1 sends it: header, 00, Lc, data, Le 0000."""
    return bytes([0, ins, p1, 0, 0, len(data) >> 8, len(data) & 0xFF]) + data + b"\x00\x00"


def ctap_seeds():
    for messages in ctap_commands():
        yield "ctap-cbor", framed(messages)
    for records in hid_conversations():
        yield "ctaphid", b"".join(records)


def main():
    for target, data in [*expanded(), *ctap_seeds()]:
        if not data:
            continue
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


if __name__ == "__main__":
    main()
