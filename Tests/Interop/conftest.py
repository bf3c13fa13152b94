"""Shared helpers for the interop suite: the built `passkey` binary and the project's vectors."""

import base64
import contextlib
import datetime
import ipaddress
import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "Vectors"


def passkey_binary() -> str:
    binary = os.environ.get("PASSKEY_BIN")
    if not binary:
        binary = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout.strip() + "/passkey"
    return binary


@pytest.fixture(scope="session")
def passkey():
    """Runs the CLI: passkey(*args, input=bytes) -> CompletedProcess (text output)."""
    binary = passkey_binary()

    def run(*args, input=None):
        return subprocess.run(
            [binary, *args], input=input, capture_output=True, timeout=60
        )

    return run


def in_pty(env, *args, answer=None):
    """Runs `passkey args` on a pseudo-terminal (standard input, output and error), typing `answer`
    when it asks for the session passphrase; (exit code, what the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(passkey_binary(), [passkey_binary(), *args], env)
    shown, typed, deadline = b"", False, time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 1)
        if not ready:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        shown += data
        if answer is not None and not typed and b"Session passphrase:" in shown:
            os.write(fd, answer.encode() + b"\n")
            typed = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


def build_go(source: Path, binary: Path) -> str:
    """Builds the Go command `source` (one main.go) into `binary` offline, in GOPATH mode from Debian's source tree
    (/usr/share/gocode: duo-labs/webauthn and its dependencies), with no module download; returns the binary's path."""
    environment = {**os.environ, "GO111MODULE": "off", "GOPATH": "/usr/share/gocode", "GOPROXY": "off", "GOFLAGS": ""}
    subprocess.run(
        ["go", "build", "-o", str(binary), str(source)], env=environment, check=True, capture_output=True, timeout=300
    )
    return str(binary)


def load(family: str, name: str) -> dict:
    return json.loads((VECTORS / family / name).read_text())


def names(family: str, exclude=()) -> list:
    return sorted(p.name for p in (VECTORS / family).glob("*.json") if p.name not in exclude)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def creation_options(challenge: bytes, **members) -> dict:
    """Creation options of example.org for user ada, asking for ES256, with `members` added
    (`attestation`, `authenticatorSelection`, `extensions`)."""
    return {
        "rp": {"id": "example.org", "name": "Example"},
        "user": {"id": b64url(b"ada"), "name": "ada", "displayName": "Ada"},
        "challenge": b64url(challenge),
        "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
        **members,
    }


# --- Running ceremonies through the CLI -----------------------------------------------------------

REFUSAL_NAMES = ("NotAllowedError", "InvalidStateError", "SecurityError", "NotSupportedError", "SyntaxError")


def ceremony(passkey, verb: str, options, origin: str, store, *extra):
    """Runs `passkey create|get --origin ORIGIN --store STORE [extra]` with the options JSON on
    standard input (a dict is serialized; str or bytes go as they are)."""
    if isinstance(options, dict):
        options = json.dumps(options)
    if isinstance(options, str):
        options = options.encode()
    return passkey(verb, "--origin", origin, "--store", str(store), *extra, input=options)


def succeeded(result) -> dict:
    """The one-line JSON a successful ceremony printed; fails with its stderr otherwise."""
    stdout, stderr = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 0, f"exit {result.returncode}: {stderr}"
    assert stdout.endswith("\n") and stdout.count("\n") == 1, f"not one line: {stdout!r}"
    return json.loads(stdout)


def refused(result, name: str, code: int = 1) -> str:
    """Checks the refusal contract (DESIGN.md): exit code, nothing on stdout, exactly one stderr
    line starting with the WebAuthn error name. Returns that line."""
    stderr = result.stderr.decode()
    assert result.returncode == code, f"exit {result.returncode}, stdout {result.stdout!r}, stderr {stderr!r}"
    assert result.stdout == b"", f"stdout not empty: {result.stdout!r}"
    lines = stderr.splitlines()
    assert len(lines) == 1 and stderr.endswith("\n"), f"not exactly one stderr line: {stderr!r}"
    assert lines[0].startswith(name), f"expected {name}: {lines[0]!r}"
    return lines[0]


def listed(passkey, store) -> list:
    """`passkey list --store STORE --json`: the credentials."""
    result = passkey("list", "--store", str(store), "--json")
    assert result.returncode == 0, result.stderr.decode()
    listing = json.loads(result.stdout)
    assert listing["problems"] == []
    return listing["credentials"]


def make_ca(name: str):
    """A self-signed P-256 root valid for a year: (key, certificate)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COUNTRY_NAME, "SE"), x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=365))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    return key, certificate


def tls_files(directory: Path) -> dict:
    """A test root (make_ca) and a server certificate it issued for localhost and 127.0.0.1, as the PEM files
    `passkey tenant serve --tls-cert --tls-key` and a client's CA bundle take: {"ca", "cert", "key"}."""
    ca_key, ca_certificate = make_ca("SoftPasskey Interop Test Root CA")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    names = x509.SubjectAlternativeName([
        x509.DNSName("localhost"), x509.IPAddress(ipaddress.IPv4Address("127.0.0.1")),
    ])
    certificate = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
        .issuer_name(ca_certificate.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(names, critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    files = {"ca": directory / "ca.pem", "cert": directory / "server-chain.pem", "key": directory / "server-key.pem"}
    ca_pem = ca_certificate.public_bytes(serialization.Encoding.PEM)
    files["ca"].write_bytes(ca_pem)
    files["cert"].write_bytes(certificate.public_bytes(serialization.Encoding.PEM) + ca_pem)
    files["key"].write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return files


@contextlib.contextmanager
def tls_tenant(directory: Path, *arguments: str):
    """`passkey tenant serve --json` on a free port over TLS from a test CA (tls_files), with `arguments` more, until
    the block ends; yields (its start line as a dict, the CA bundle's path) for the SDK under test to trust."""
    files = tls_files(directory)
    tenant = subprocess.Popen(
        [passkey_binary(), "tenant", "serve", "--json", "--port", "0", "--db", ":memory:",
         "--tls-cert", str(files["cert"]), "--tls-key", str(files["key"]), *arguments],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        line = json.loads(tenant.stdout.readline())
        assert line["url"].startswith("https://127.0.0.1:")
        yield line, files["ca"]
    finally:
        tenant.terminate()
        tenant.wait(timeout=10)


@pytest.fixture
def trusted_tls_tenant(tmp_path, monkeypatch):
    """tls_tenant with no more arguments, its CA trusted by SSL_CERT_FILE (which httpx, under the Management SDK,
    reads) and REQUESTS_CA_BUNDLE (requests, under the Authentication SDK): its `--json` line with "ca" added."""
    with tls_tenant(tmp_path) as (line, ca):
        monkeypatch.setenv("SSL_CERT_FILE", str(ca))
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(ca))
        yield {**line, "ca": str(ca)}


def management_client(line: dict):
    """auth0-python's ManagementClient, unmodified, as the served tenant's machine-to-machine client."""
    from auth0.management import ManagementClient

    return ManagementClient(
        domain=line["url"].removeprefix("https://"), client_id=line["m2m_client_id"],
        client_secret=line["m2m_client_secret"], audience=line["management_audience"],
    )
