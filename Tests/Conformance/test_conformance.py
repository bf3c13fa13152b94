"""`passkey conformance run` against FIDO2 transport-binding servers around relying-party libraries this package
did not write (pywebauthn_server.py, fido2_server.py, go_server/), each trusting the runner's attestation root:
its `{id: outcome}` map is the checked-in report `reports/<server>.json`, so a change in the runner's verdicts
(or a library's) shows as the IDs that differ. `CONFORMANCE_UPDATE=1` rewrites the reports instead.

And the runner can fail: py_webauthn with one check switched off (`--defect`) fails exactly the tests that cover
that check, and exits 1; a server that answers garbage, too late, with a redirect or with 500 fails every test
with a reason, and the runner exits 1 rather than crash."""

import json
import os
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ElementTree
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Interop"))
from conftest import build_go, passkey_binary  # noqa: E402 (Tests/Interop/conftest.py: the built CLI, Go builds)

REPORTS = HERE / "reports"
UPDATE = os.environ.get("CONFORMANCE_UPDATE") == "1"



def runner_missing() -> bool:
    """Whether this `passkey` predates `passkey conformance` (an unknown subcommand), so there is nothing to run."""
    result = subprocess.run([passkey_binary(), "conformance", "list", "--json"], capture_output=True, timeout=60)
    return result.returncode == 64 and b"conformance" not in subprocess.run(
        [passkey_binary(), "--help"], capture_output=True, timeout=60).stdout


pytestmark = pytest.mark.skipif(runner_missing(), reason="this passkey has no `conformance` subcommand")

# The tests each py_webauthn defect must turn from passed to failed (and nothing else).
DEFECT_TESTS = {
    "no-signature-check": {"AUTH-REFUSE-SIGNATURE"},
    "no-origin-check": {"REG-REFUSE-ORIGIN", "AUTH-REFUSE-ORIGIN"},
    "no-challenge-check": {"REG-REFUSE-CHALLENGE", "AUTH-REFUSE-CHALLENGE"},
    "no-rpid-check": {"REG-REFUSE-RPID-HASH", "AUTH-REFUSE-RPID-HASH"},
    "no-counter-check": {"AUTH-REFUSE-COUNTER"},
    "no-up-check": {"REG-REFUSE-UP", "AUTH-REFUSE-UP"},
    "any-attestation": {
        f"ATT-{format}-{fault}" for format in ("ANDROID-KEY", "APPLE", "FIDO-U2F", "PACKED", "TPM")
        for fault in ("BAD-SIGNATURE", "EXPIRED-CHAIN", "UNTRUSTED-CHAIN", "WRONG-CERTIFICATE-PROFILE")
    } - {"ATT-PACKED-WRONG-CERTIFICATE-PROFILE"} | {"ATT-PACKED-SELF-BAD-SIGNATURE"},
}
# The tests py_webauthn fails by its statement verification alone, which pass when it is switched off.
DEFECT_PASSES = {"any-attestation": {"ATT-ANDROID-KEY"}}


@pytest.fixture(scope="module")
def runner_root(tmp_path_factory):
    """The runner's attestation root (`passkey conformance root`) as a PEM file, for the servers' --root; the runner
    is then run with --trusts-root."""
    path = tmp_path_factory.mktemp("root") / "root.pem"
    result = subprocess.run([passkey_binary(), "conformance", "root"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    path.write_text(result.stdout)
    return path


@pytest.fixture(scope="module")
def go_server(tmp_path_factory):
    return build_go(HERE / "go_server" / "main.go", tmp_path_factory.mktemp("go") / "go_server")


@pytest.fixture(scope="module")
def commands(runner_root, go_server):
    """Each server's command line, trusting the runner's root."""
    python = [sys.executable]
    return {
        "pywebauthn": [*python, str(HERE / "pywebauthn_server.py"), "--port", "0", "--root", str(runner_root)],
        "fido2": [*python, str(HERE / "fido2_server.py"), "--port", "0", "--root", str(runner_root)],
        "go-webauthn": [go_server, "-port", "0", "-root", str(runner_root)],
    }


@contextmanager
def started(command):
    """The server `command` starts, until the block ends: its URL (the one line it prints once listening)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line, f"{command[0]} printed nothing: {process.stderr.read() if process.poll() is not None else ''}"
        yield json.loads(line)["url"]
    finally:
        process.terminate()
        process.wait(timeout=10)


def conformance(url, *extra):
    """`passkey conformance run --server URL --json [extra]`: (exit code, the report)."""
    result = subprocess.run(
        [passkey_binary(), "conformance", "run", "--server", url, "--json", *extra],
        capture_output=True, text=True, timeout=900,
    )
    assert result.returncode in (0, 1), f"exit {result.returncode}: {result.stderr}"
    report = json.loads(result.stdout)
    failed = [test["id"] for test in report["tests"] if test["outcome"] == "failed"]
    assert result.returncode == (1 if failed else 0), f"exit {result.returncode} with failures {failed}"
    assert report["failed"] == len(failed)
    return result.returncode, report


def outcomes(report) -> dict:
    return {test["id"]: test["outcome"] for test in report["tests"]}


def differences(expected: dict, actual: dict, report) -> list:
    reasons = {test["id"]: test.get("reason", "") for test in report["tests"]}
    return [
        f"{id}: expected {expected.get(id, 'absent')}, got {actual.get(id, 'absent')} {reasons.get(id, '')}".rstrip()
        for id in sorted(set(expected) | set(actual)) if expected.get(id) != actual.get(id)
    ]


@pytest.fixture(scope="module")
def clean_pywebauthn(commands):
    """The report of py_webauthn without defects: the baseline of the defect matrix."""
    with started(commands["pywebauthn"]) as url:
        return conformance(url, "--trusts-root")[1]


@pytest.mark.parametrize("server", ["pywebauthn", "fido2", "go-webauthn"])
def test_each_server_gets_its_expected_report(server, commands, clean_pywebauthn, tmp_path):
    junit = tmp_path / "report.xml"
    if server == "pywebauthn":
        report = clean_pywebauthn
    else:
        with started(commands[server]) as url:
            report = conformance(url, "--trusts-root", "--junit", str(junit))[1]
        cases = ElementTree.parse(junit).getroot().iter("testcase")
        assert len(list(cases)) == len(report["tests"]), "the JUnit XML has not one testcase per test"
    path = REPORTS / f"{server}.json"
    if UPDATE:
        REPORTS.mkdir(exist_ok=True)
        path.write_text(json.dumps(outcomes(report), indent=2, sort_keys=True) + "\n")
        return
    expected = json.loads(path.read_text())
    changed = differences(expected, outcomes(report), report)
    assert not changed, f"{server}: the runner's verdicts differ from {path.name}:\n" + "\n".join(changed)


@pytest.mark.parametrize("defect", sorted(DEFECT_TESTS))
def test_a_defect_fails_exactly_the_tests_that_cover_it(defect, commands, clean_pywebauthn):
    with started([*commands["pywebauthn"], "--defect", defect]) as url:
        code, report = conformance(url, "--trusts-root")
    assert code == 1
    before, after = outcomes(clean_pywebauthn), outcomes(report)
    newly_failed = {id for id, outcome in after.items() if outcome == "failed" and before.get(id) == "passed"}
    changed = differences({id: before.get(id) for id in after}, after, report)
    assert newly_failed == DEFECT_TESTS[defect], "\n".join(changed)
    newly_passed = {id for id, outcome in after.items() if outcome == "passed" and before.get(id) == "failed"}
    assert newly_passed == DEFECT_PASSES.get(defect, set()), "\n".join(changed)
    assert len(changed) == len(newly_failed | newly_passed), "other outcomes changed too:\n" + "\n".join(changed)


class BadServer(BaseHTTPRequestHandler):
    """Answers every request the way its server's `mode` says: garbage, late, a redirect, or 500."""

    protocol_version = "HTTP/1.1"

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        mode = self.server.mode
        if mode == "slow":
            time.sleep(4)
        if mode == "redirect":
            self.send_response(302)
            self.send_header("Location", "http://localhost:1/elsewhere")
            body = b""
        else:
            self.send_response(500 if mode == "error" else 200)
            body = b'{"status":"failed","errorMessage":"broken"}' if mode == "error" else b"\x00not json{"
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:  # the runner gave up waiting
            pass

    do_GET = do_POST

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("mode", ["garbage", "slow", "redirect", "error"])
def test_a_broken_server_fails_every_test_with_a_reason(mode, tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), BadServer)
    server.daemon_threads = True
    server.mode = mode
    threading.Thread(target=server.serve_forever, daemon=True).start()
    junit = tmp_path / "report.xml"
    try:
        code, report = conformance(f"http://localhost:{server.server_address[1]}", "--timeout", "1", "--junit", str(junit))
    finally:
        server.shutdown()
        server.server_close()
    assert code == 1
    ran = [test for test in report["tests"] if test["outcome"] != "skipped"]
    assert ran and all(test["outcome"] == "failed" and test.get("reason") for test in ran), [
        (test["id"], test["outcome"], test.get("reason")) for test in ran if test["outcome"] != "failed"
    ]
    assert len(list(ElementTree.parse(junit).getroot().iter("testcase"))) == len(report["tests"])
