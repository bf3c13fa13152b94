"""`create`, `get` and `verify` on a real terminal (a pseudo-terminal): text for the person reading
it, JSON with --json; through a pipe they print the JSON they always did (issue 25), which the rest
of this suite relies on."""

import json
import os

from conftest import ceremony, in_pty, succeeded

ORIGIN, RP_ID, CHALLENGE = "https://example.com", "example.com", "AAECAwQFBgcICQoLDA0ODw"
CREATION = {
    "rp": {"name": "Example", "id": RP_ID},
    "user": {"id": "dXNlci0x", "name": "ada", "displayName": "Ada"},
    "challenge": CHALLENGE,
    "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
    "authenticatorSelection": {"residentKey": "required"},
}
REQUEST = {"challenge": CHALLENGE, "rpId": RP_ID}


def on_terminal(*args):
    """Runs `passkey args` on a pseudo-terminal; (exit code, what it showed, with the terminal's
    CRLF line ends turned back into LF)."""
    status, shown = in_pty({"PATH": os.environ.get("PATH", "")}, *args)
    return status, shown.replace("\r\n", "\n")


def test_ceremonies_and_verification_print_text_on_a_terminal_and_json_through_a_pipe(passkey, tmp_path):
    store = str(tmp_path / "store")
    options = tmp_path / "create.json"
    options.write_text(json.dumps(CREATION))

    status, shown = on_terminal("create", "--origin", ORIGIN, "--store", store, "--options", str(options))
    assert status == 0, shown
    first, _, rest = shown.partition("\n")
    assert first.startswith("Created passkey ") and first.endswith("."), shown
    assert "attestationObject" in rest and "flags" in rest and "UP" in rest, shown

    # --json forces the one-line RegistrationResponseJSON on a terminal too.
    status, shown = on_terminal(
        "create", "--origin", ORIGIN, "--store", store, "--options", str(options), "--json"
    )
    assert status == 0, shown
    assert json.loads(shown)["type"] == "public-key"

    # Through a pipe: the JSON, as ever.
    registration = succeeded(ceremony(passkey, "create", CREATION, ORIGIN, store))
    assert registration["response"]["attestationObject"]

    request = tmp_path / "get.json"
    request.write_text(json.dumps(REQUEST))
    status, shown = on_terminal("get", "--origin", ORIGIN, "--store", store, "--options", str(request))
    assert status == 0, shown
    # The same user's newer passkeys replaced the first (CTAP 2.1 §6.1.2): the piped one answers.
    assert shown.startswith(f"Signed with passkey {registration['id']}.\n"), shown
    assert "authenticatorData" in shown and "signature" in shown, shown

    response = tmp_path / "registration.json"
    response.write_text(json.dumps(registration))
    verify = ("verify", "registration", "--response", str(response), "--challenge", CHALLENGE,
              "--origin", ORIGIN, "--rp-id", RP_ID)
    status, shown = on_terminal(*verify)
    assert status == 0, shown
    assert shown.startswith("Registration verified; store this credential.\n"), shown
    assert any(line.split() == ["credentialId", registration["id"]] for line in shown.splitlines()), shown

    status, shown = on_terminal(*verify, "--json")
    assert status == 0, shown
    assert json.loads(shown)["credentialId"] == registration["id"]

    piped = passkey(*verify)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["credentialId"] == registration["id"]
