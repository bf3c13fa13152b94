"""Builds the seed corpus of each fuzz target (Fuzz/Corpus/<target>/) from the project's vectors:
the CBOR, authenticator data, client data, JSON, COSE keys and certificates they carry.
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


def main():
    for target, data in expanded():
        if not data:
            continue
        directory = CORPUS / target
        directory.mkdir(parents=True, exist_ok=True)
        (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


if __name__ == "__main__":
    main()
