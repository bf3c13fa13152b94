"""`passkey conformance mds serve` as a process: its BLOB, fetched over HTTP, parsed and verified by python-fido2's
MDS3 reader with the root it prints; the broken variants refused; a clean exit on SIGINT."""

import base64
import datetime
import json
import signal
import subprocess
import urllib.request

import pytest
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from fido2.attestation import InvalidSignature as InvalidChain
from fido2.mds3 import AuthenticatorStatus, parse_blob

from conftest import load, passkey_binary

# ConformanceAuthenticator: "SPKC" and the model's number; the unlisted model (5) is not in the BLOB.
STATUSES = {
    "53504b43-0000-4000-8000-000000000001": [AuthenticatorStatus.FIDO_CERTIFIED],
    "53504b43-0000-4000-8000-000000000002": [AuthenticatorStatus.FIDO_CERTIFIED, AuthenticatorStatus.REVOKED],
    "53504b43-0000-4000-8000-000000000003": [
        AuthenticatorStatus.FIDO_CERTIFIED, AuthenticatorStatus.ATTESTATION_KEY_COMPROMISE],
    "53504b43-0000-4000-8000-000000000004": [
        AuthenticatorStatus.FIDO_CERTIFIED, AuthenticatorStatus.USER_VERIFICATION_BYPASS],
}


@pytest.fixture(scope="module")
def service():
    """The running service's start line, {"url", "root"}, and its root as DER."""
    server = subprocess.Popen([passkey_binary(), "conformance", "mds", "serve", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        start = json.loads(server.stdout.readline())
        root = x509.load_pem_x509_certificate(start["root"].encode()).public_bytes(serialization.Encoding.DER)
        yield start, root
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=10) == 0


def for_python_fido2(blob):
    """The BLOB with its ES256 signature as DER instead of JWS's r || s (RFC 7518 §3.4): python-fido2 2.2.1's
    `parse_blob` hands the JWS signature straight to `cryptography`'s ECDSA verify, which takes DER, so it
    verifies RS256 BLOBs (the FIDO Alliance's) but no standard ES256 one. The signed input is unchanged, so the
    chain and the signature are still python-fido2's to check."""
    signing_input, signature = blob.rsplit(b".", 1)
    raw = base64.urlsafe_b64decode(signature + b"=" * (-len(signature) % 4))
    assert len(raw) == 64
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    return signing_input + b"." + base64.urlsafe_b64encode(der).rstrip(b"=")


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.status == 200
        return answer.headers["Content-Type"], answer.read()


def test_python_fido2_verifies_the_blob_with_the_printed_root_and_reads_every_status(service):
    start, root = service
    assert start["url"].startswith("http://127.0.0.1:") and start["url"].endswith("/")
    content_type, blob = fetch(start["url"])
    assert content_type == "application/jwt"
    payload = parse_blob(for_python_fido2(blob), root)
    assert payload.no == 1
    assert payload.next_update > datetime.date.today()
    assert {str(entry.aaguid): [report.status for report in entry.status_reports]
            for entry in payload.entries} == STATUSES
    for entry in payload.entries:
        statement = entry.metadata_statement
        assert statement.aaguid == entry.aaguid
        assert statement.protocol_family == "fido2"
        assert statement.attestation_root_certificates == [root]


def test_the_served_root_is_the_printed_one(service):
    start, _ = service
    _, pem = fetch(start["url"] + "root.pem")
    assert pem.decode() == start["root"]


@pytest.mark.parametrize("variant, error", [("bad-signature", InvalidSignature), ("wrong-chain", InvalidChain)])
def test_python_fido2_refuses_a_broken_blob(service, variant, error):
    start, root = service
    _, blob = fetch(start["url"] + variant)
    with pytest.raises(error):
        parse_blob(for_python_fido2(blob), root)


def test_the_expired_blob_is_signed_by_a_leaf_whose_validity_ended(service):
    start, root = service
    _, blob = fetch(start["url"] + "expired")
    header = json.loads(base64.urlsafe_b64decode(blob.split(b".")[0] + b"=="))
    leaf = x509.load_der_x509_certificate(base64.b64decode(header["x5c"][0]))
    assert leaf.not_valid_after_utc < datetime.datetime.now(datetime.timezone.utc)
    assert parse_blob(for_python_fido2(blob), root).no == 1  # python-fido2 checks signatures only; a relying party must check dates


@pytest.mark.parametrize("path, trusted", [("", False), ("expired", None)])
def test_verify_registration_reads_metadata_from_the_service(service, passkey, tmp_path, path, trusted):
    """`passkey verify registration --metadata-url`: the W3C packed vector's model is not listed, so its
    attestation is verified but not trusted; a BLOB that does not verify is one line and exit 1."""
    start, _ = service
    registration = load("w3c", "packed-es256.json")["registration"]
    (tmp_path / "r.json").write_text(json.dumps(registration["registration_response_json"]))
    (tmp_path / "root.pem").write_text(start["root"])
    result = passkey("verify", "registration", "--response", str(tmp_path / "r.json"), "--challenge",
                     registration["inputs"]["challenge_b64url"], "--origin", "https://example.org",
                     "--rp-id", "example.org", "--json", "--metadata-url", start["url"] + path,
                     "--metadata-root", str(tmp_path / "root.pem"))
    if trusted is None:
        assert result.returncode == 1 and result.stdout == b""
        assert result.stderr.decode().startswith("bad-metadata: ")
    else:
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["attestationTrusted"] is trusted
