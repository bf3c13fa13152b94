"""The verifiers `passkey-bench --compare-verifiers` measures beside SoftPasskey's relying party
(Tests/Interop/verifier_peer_bench.py: py_webauthn 3; Tests/Interop/go_webauthn_bench: Debian's
duo-labs/webauthn in Go) really verify: each accepts an assertion made by `passkey get` and
refuses it with a changed signature or for another challenge, so their figures are of verifiers
that check. And the bench prints both comparisons with their baselines and targets."""

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from webauthn import verify_registration_response

from conftest import ROOT, b64url, build_go, ceremony, creation_options, passkey_binary, succeeded

ORIGIN = "https://example.org"


@pytest.fixture(scope="module")
def go_peer(tmp_path_factory):
    """The Go peer, built offline from Debian's source tree as the bench builds it."""
    return [build_go(ROOT / "Tests/Interop/go_webauthn_bench/main.go", tmp_path_factory.mktemp("go") / "go_webauthn_bench")]


@pytest.fixture(scope="module")
def python_peer():
    return [sys.executable, str(ROOT / "Tests/Interop/verifier_peer_bench.py")]


@pytest.fixture(scope="module")
def fixture(passkey, tmp_path_factory):
    """An assertion of `passkey get` and what the relying party knows, in the peers' format."""
    store = tmp_path_factory.mktemp("store")
    challenge = os.urandom(32)
    options = creation_options(challenge, authenticatorSelection={"residentKey": "required"})
    registration = succeeded(ceremony(passkey, "create", options, ORIGIN, store))
    verified = verify_registration_response(
        credential=registration, expected_challenge=challenge, expected_rp_id="example.org", expected_origin=ORIGIN
    )
    request = {"challenge": b64url(challenge), "rpId": "example.org"}
    assertion = succeeded(ceremony(passkey, "get", request, ORIGIN, store))
    return {
        "response": assertion,
        "challenge": b64url(challenge),
        "credentialPublicKey": b64url(verified.credential_public_key),
        "userHandle": b64url(b"ada"),
        "rpId": "example.org",
        "origin": ORIGIN,
        "signCount": verified.sign_count,
    }


def check(peer, fixture, tmp_path):
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    return subprocess.run([*peer, "check", str(path)], capture_output=True, text=True, timeout=60)


def tampered_signature(fixture):
    changed = json.loads(json.dumps(fixture))
    signature = bytearray(base64.urlsafe_b64decode(changed["response"]["response"]["signature"] + "=="))
    signature[len(signature) // 2] ^= 1
    changed["response"]["response"]["signature"] = b64url(bytes(signature))
    return changed


@pytest.mark.parametrize("peer_name", ["python_peer", "go_peer"])
def test_each_peer_accepts_the_assertion_and_refuses_a_tampered_one(peer_name, request, fixture, tmp_path):
    peer = request.getfixturevalue(peer_name)
    accepted = check(peer, fixture, tmp_path)
    assert accepted.returncode == 0 and accepted.stdout.strip() == "accepted", accepted.stderr
    for changed in (tampered_signature(fixture), {**fixture, "challenge": b64url(os.urandom(32))}):
        refused = check(peer, changed, tmp_path)
        assert refused.returncode == 1 and refused.stderr.startswith("rejected"), refused.stderr


@pytest.mark.parametrize("peer_name", ["python_peer", "go_peer"])
def test_each_peer_measures_a_rate(peer_name, request, fixture, tmp_path):
    path = tmp_path / "fixture.json"
    path.write_text(json.dumps(fixture))
    result = subprocess.run(
        [*request.getfixturevalue(peer_name), "rate", str(path), "0.05"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert float(result.stdout) > 0


def test_the_bench_compares_our_verification_with_both():
    bench = Path(passkey_binary()).with_name("passkey-bench")
    result = subprocess.run([
        bench, "--compare-verifiers", "--python", sys.executable, "--verifier-peers", str(ROOT / "Tests/Interop"),
        "--only", "rp-verify-vs", "--seconds", "0.05", "--rounds", "1", "--store-size", "0", "--json",
    ], capture_output=True, timeout=600)  # the first Go build compiles its standard library
    assert result.returncode == 0, result.stderr.decode()
    figures = {figure["name"]: figure for figure in json.loads(result.stdout)}
    for peer, target in (("py-webauthn", 2), ("go-webauthn", 1.4)):
        baseline = figures[f"{peer}-verify"]
        ours = figures[f"rp-verify-vs-{peer}"]
        assert baseline["value"] > 0 and baseline["unit"] == "ops/s"
        assert ours["baseline"] == f"{peer}-verify"
        assert abs(ours["ratio"] - ours["value"] / baseline["value"]) < 1e-9
        assert ours["target"] == target
