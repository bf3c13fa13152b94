"""The release tarball on a bare Debian root (no Swift, no libcbor, no libcurl, no dev packages):
its `bin/passkey` runs from wherever it was unpacked, with only what the tarball carries.

Run inside the root by Tests/Dist/bare-root.sh; SOFTPASSKEY_HOME is the unpacked tarball. The
passkeys it makes are checked by py_webauthn, a relying party nobody here wrote.
"""

import base64
import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest
from webauthn import verify_authentication_response, verify_registration_response

HOME = Path(os.environ["SOFTPASSKEY_HOME"])
PASSKEY = HOME / "bin/passkey"
VERSION = os.environ["SOFTPASSKEY_VERSION"]
ORIGIN = "https://example.org"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def passkey(*arguments, input=None, env=None):
    """`bin/passkey ARGUMENTS`, which must succeed; its standard output."""
    result = subprocess.run([PASSKEY, *arguments], input=input, capture_output=True, text=True, timeout=120,
                            env=env)
    assert result.returncode == 0, f"passkey {' '.join(arguments)}: exit {result.returncode}: {result.stderr}"
    return result.stdout


@pytest.fixture
def shell(tmp_path):
    """The environment of a user's shell with a store of its own (no PASSKEY_PASSPHRASE)."""
    return {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "XDG_DATA_HOME": str(tmp_path / "data"), "PASSKEY_STORE": str(tmp_path / "phone")}


def test_version_names_the_release_and_its_commit():
    assert re.fullmatch(re.escape(VERSION) + r" \(commit [0-9a-f]{40}(-dirty)?\)\n", passkey("--version"))


def test_every_shipped_binary_resolves_its_libraries_inside_the_root():
    shipped = [PASSKEY, *sorted((HOME / "lib").iterdir())]
    assert len(shipped) > 1, "the tarball vendors the libraries a bare root lacks"
    for binary in shipped:
        ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
        assert "not found" not in ldd, f"{binary.name}:\n{ldd}"
    ldd = subprocess.run(["ldd", PASSKEY], capture_output=True, text=True, check=True).stdout
    resolved = {name: os.path.normpath(path) for name, path in re.findall(r"^\s*(\S+) => (\S+)", ldd, re.MULTILINE)}
    libcbor = next(path for name, path in resolved.items() if name.startswith("libcbor-"))
    assert Path(libcbor).parent == HOME / "lib", f"libcbor from the tarball's lib/ (run path $ORIGIN/../lib): {ldd}"
    assert not any(name.startswith(("libswift", "libFoundation", "libdispatch")) for name in resolved), \
        f"the Swift runtime is linked statically: {ldd}"


def test_a_passkey_created_and_used_from_a_store_verifies_at_py_webauthn(shell):
    challenge = os.urandom(32)
    creation = {"rp": {"id": "example.org", "name": "Example"},
                "user": {"id": b64url(b"ada"), "name": "ada", "displayName": "Ada"},
                "challenge": b64url(challenge), "pubKeyCredParams": [{"type": "public-key", "alg": -7}]}
    registration = passkey("create", "--origin", ORIGIN, input=json.dumps(creation), env=shell)
    verified = verify_registration_response(credential=registration, expected_challenge=challenge,
                                            expected_origin=ORIGIN, expected_rp_id="example.org")

    challenge = os.urandom(32)
    request = {"rpId": "example.org", "challenge": b64url(challenge), "userVerification": "required"}
    assertion = passkey("get", "--origin", ORIGIN, input=json.dumps(request), env=shell)
    verify_authentication_response(credential=assertion, expected_challenge=challenge, expected_origin=ORIGIN,
                                   expected_rp_id="example.org", credential_public_key=verified.credential_public_key,
                                   credential_current_sign_count=verified.sign_count, require_user_verification=True)
    (stored,) = json.loads(passkey("list", "--json", env=shell))["credentials"]
    assert stored["rpId"] == "example.org"


@pytest.fixture
def tenant(tmp_path, shell):
    """`passkey tenant serve` on a free port, and the shell pointed at it."""
    process = subprocess.Popen([PASSKEY, "tenant", "serve", "--json", "--db", str(tmp_path / "tenant.sqlite")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    start = json.loads(process.stdout.readline())
    yield dict(shell, AUTH0_BASE_URL=start["url"], AUTH0_CLIENT_ID=start["client_id"])
    process.terminate()
    assert process.wait(timeout=30) == 0


def test_signup_login_and_enroll_against_the_tenant(tenant, tmp_path):
    assert "Signed up ada@example.com" in passkey("signup", "--email", "ada@example.com", env=tenant)
    assert "Logged in as ada@example.com" in passkey("login", env=tenant)
    passkey("enroll", "--store", str(tmp_path / "laptop"), env=tenant)
    methods = json.loads(passkey("methods", "--json", env=tenant))
    assert len([method for method in methods["methods"] if method["type"] == "passkey"]) == 2, methods


def test_serve_answers_the_w3c_virtual_authenticator_routes():
    process = subprocess.Popen([PASSKEY, "serve", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    try:
        start = json.loads(process.stdout.readline())

        def call(method, path, body=None):
            request = urllib.request.Request(start["url"] + path, method=method,
                                             data=None if body is None else json.dumps(body).encode(),
                                             headers={"Authorization": f"Bearer {start['token']}",
                                                      "Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"{}")

        session = call("POST", "/session", {})["value"]["sessionId"]
        added = call("POST", f"/session/{session}/webauthn/authenticator",
                     {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                      "hasUserVerification": True, "isUserVerified": True})
        credentials = call("GET", f"/session/{session}/webauthn/authenticator/{added['value']}/credentials")
        assert credentials["value"] == []
        call("DELETE", f"/session/{session}")
    finally:
        process.terminate()
    assert process.wait(timeout=30) == 0
