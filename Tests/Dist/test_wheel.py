"""The release wheel on a bare Debian root: `pip install softpasskey-….whl` into a fresh virtual
environment is the whole installation. Its `passkey` console script and `PasskeyServer()` run the
binary it carries, whose libraries auditwheel vendored.

Run inside the root by Tests/Dist/bare-root.sh, with this environment's Python; the example suite
(Examples/python: py_webauthn's relying party and `PasskeyServer()`) runs after it the same way.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import softpasskey.binary
from softpasskey.control import PasskeyServer

VERSION = os.environ["SOFTPASSKEY_VERSION"]
SCRIPTS = Path(sys.executable).parent


def test_the_console_script_runs_the_bundled_binary():
    bundled = Path(softpasskey.binary.bundled())
    assert bundled.is_relative_to(Path(softpasskey.binary.__file__).parent), "the binary is inside the package"
    assert "PASSKEY_BIN" not in os.environ and shutil.which("swift") is None
    version = subprocess.run([SCRIPTS / "passkey", "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.startswith(VERSION + " (commit ")


def test_python_dash_m_softpasskey_is_the_console_script():
    by_module = subprocess.run([sys.executable, "-m", "softpasskey", "--version"], capture_output=True, text=True,
                               check=True)
    by_script = subprocess.run([SCRIPTS / "passkey", "--version"], capture_output=True, text=True, check=True)
    assert by_module.stdout == by_script.stdout and by_module.stdout.startswith(VERSION + " (commit ")


def test_the_bundled_binary_and_its_vendored_libraries_resolve_inside_the_root():
    bundled = Path(softpasskey.binary.bundled())
    vendored = sorted((bundled.parents[2] / "softpasskey.libs").iterdir())
    assert vendored, "auditwheel vendored the libraries a bare root lacks"
    for binary in [bundled, *vendored]:
        ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
        assert "not found" not in ldd, f"{binary.name}:\n{ldd}"


def test_passkey_server_starts_the_bundled_binary_by_default():
    server = PasskeyServer()
    try:
        assert server.process.args[0] == softpasskey.binary.bundled()
        session = server.new_session()
        authenticator = session.add_authenticator(protocol="ctap2", transport="internal", hasResidentKey=True,
                                                  hasUserVerification=True, isUserVerified=True)
        assert authenticator.credentials() == []
        session.delete()
    finally:
        assert server.stop() == 0


def test_the_demo_runs_and_says_why_it_skips_the_browser(tmp_path):
    environment = {"PATH": f"{SCRIPTS}:/usr/bin:/bin", "HOME": str(tmp_path)}
    demo = subprocess.run([SCRIPTS / "passkey", "demo"], capture_output=True, text=True, timeout=300,
                          env=environment)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    assert "Skipped: Chromium is not installed" in demo.stdout, demo.stdout
