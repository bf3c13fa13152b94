"""Our verifier (the `passkey verify` CLI) agrees with py_webauthn, and python-fido2 decodes and
verifies what our CLI reports, on every vector both can judge."""

import base64
import contextlib
import importlib
import datetime
import hashlib
import json
import tempfile
from unittest import mock
from pathlib import Path

import pytest
import webauthn
from OpenSSL.crypto import X509Store
from fido2 import cbor
from fido2.attestation import Attestation, UnsupportedAttestation, verify_x509_chain
from fido2.cose import CoseKey
from fido2.webauthn import AttestationObject
from webauthn.helpers.cose import COSEAlgorithmIdentifier

from conftest import load, names

W3C = names("w3c", exclude=("attestation-root-cert.json", "prf-hmac-secret.json"))
REALWORLD = names("realworld")
SUPPORTED_FORMATS = {"none", "packed", "fido-u2f", "apple", "android-key", "tpm"}
PYWEBAUTHN_ALGS = {alg.value for alg in COSEAlgorithmIdentifier}
CROSS_ORIGIN = ("--allow-cross-origin", "--top-origin", "https://example.com")
# The module, not the function `webauthn.helpers` re-exports under the same name.
pywebauthn_chain = importlib.import_module("webauthn.helpers.validate_certificate_chain")
# W3C vectors no conforming verifier accepts: our code, py_webauthn's message.
# (py_webauthn stops at its chain check before the key description: it wants x5c past the leaf.)
W3C_SPEC_FINDINGS = {"android-key-es256.json": ("attestation-certificate-requirements", "Android Key")}
# W3C vectors we verify that an independent verifier refuses for a rule WebAuthn L3 does not state:
# the verifier and the start of its message. tpm-es256: TPM vendor id:00000000 is not in the TCG
# registry (py_webauthn checks the registry), certInfo clockInfo.safe 0x33 is not a TPMI_YES_NO
# (python-fido2 parses it as a boolean); §8.3 asks neither.
W3C_DIVERGENCES = {"tpm-es256.json": {"py_webauthn": "Unrecognized TPM Manufacturer", "fido2": "invalid value 0x33"}}
ZERO_AAGUID = "00000000-0000-0000-0000-000000000000"
SUPPORTED_ALGS = {-7, -8, -35, -36, -37, -38, -39, -257, -258, -259}


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def value(enum_or_str) -> str:
    """py_webauthn returns some fields as enums in some versions and as strings in others."""
    return getattr(enum_or_str, "value", enum_or_str)


def write(directory: Path, name: str, value) -> str:
    path = directory / name
    path.write_text(value if isinstance(value, str) else json.dumps(value))
    return str(path)


def w3c_root_pem() -> str:
    return load("w3c", "attestation-root-cert.json")["derived"]["attestation_ca_cert_pem"]


@pytest.mark.parametrize("name", W3C)
def test_w3c_registration_matches_pywebauthn(passkey, name, tmp_path):
    vector = load("w3c", name)
    if vector["attestation_format"] not in SUPPORTED_FORMATS:
        pytest.skip("format answered 'unsupported' by design")
    registration = vector["registration"]
    response = registration["registration_response_json"]
    challenge = registration["inputs"]["challenge_b64url"]
    ours = passkey(
        "verify", "registration", "--response", write(tmp_path, "r.json", response),
        f"--challenge={challenge}", "--origin", "https://example.org", "--rp-id", "example.org",
        "--trust-anchor", write(tmp_path, "root.pem", w3c_root_pem()), *CROSS_ORIGIN,
    )
    if name in W3C_SPEC_FINDINGS:
        # See W3CVectorTests.specFindings: both verifiers refuse it, for the same §8.4 step.
        code, theirs = W3C_SPEC_FINDINGS[name]
        assert ours.returncode == 1 and ours.stderr.decode().startswith(code + ":"), ours.stderr.decode()
        with pytest.raises(webauthn.helpers.exceptions.InvalidRegistrationResponse, match=theirs):
            webauthn.verify_registration_response(
                credential=response, expected_challenge=b64url_decode(challenge),
                expected_origin="https://example.org", expected_rp_id="example.org",
                pem_root_certs_bytes_by_fmt={vector["attestation_format"]: [w3c_root_pem().encode()]})
        return
    assert ours.returncode == 0, ours.stderr.decode()
    ours = json.loads(ours.stdout)
    if ours["algorithm"] not in PYWEBAUTHN_ALGS:
        pytest.skip(f"py_webauthn does not implement COSE algorithm {ours['algorithm']}; ours verified it")
    if "py_webauthn" in W3C_DIVERGENCES.get(name, {}):
        with pytest.raises(webauthn.helpers.exceptions.InvalidRegistrationResponse,
                           match=W3C_DIVERGENCES[name]["py_webauthn"]):
            webauthn.verify_registration_response(
                credential=response, expected_challenge=b64url_decode(challenge),
                expected_origin="https://example.org", expected_rp_id="example.org",
                pem_root_certs_bytes_by_fmt={vector["attestation_format"]: [w3c_root_pem().encode()]})
        return
    if vector["attestation_format"] == "fido-u2f" and ours["aaguid"] != ZERO_AAGUID:
        # py_webauthn also demands a zero AAGUID of fido-u2f, a FIDO conformance-tool rule that
        # WebAuthn L3 §8.6 does not state; the W3C vector (non-zero AAGUID) must pass, and does here.
        with pytest.raises(webauthn.helpers.exceptions.InvalidRegistrationResponse, match="AAGUID"):
            webauthn.verify_registration_response(
                credential=response, expected_challenge=b64url_decode(challenge),
                expected_origin="https://example.org", expected_rp_id="example.org")
        return
    theirs = webauthn.verify_registration_response(
        credential=response, expected_challenge=b64url_decode(challenge),
        expected_origin="https://example.org", expected_rp_id="example.org",
        pem_root_certs_bytes_by_fmt={fmt: [w3c_root_pem().encode()] for fmt in SUPPORTED_FORMATS},
        supported_pub_key_algs=list(COSEAlgorithmIdentifier),
    )
    assert b64url_decode(ours["credentialId"]) == theirs.credential_id
    assert b64url_decode(ours["publicKey"]) == theirs.credential_public_key
    assert ours["signCount"] == theirs.sign_count
    assert ours["aaguid"] == theirs.aaguid
    assert ours["format"] == value(theirs.fmt)
    assert ours["backupEligible"] == (value(theirs.credential_device_type) == "multi_device")
    assert ours["backupState"] == theirs.credential_backed_up
    assert ours["userVerified"] == theirs.user_verified


@pytest.mark.parametrize("name", W3C)
def test_w3c_authentication_verified_by_fido2_with_our_key(passkey, name, tmp_path):
    """python-fido2 verifies the assertion with the COSE key our CLI reported, and our CLI
    verifies it too."""
    vector = load("w3c", name)
    registration = vector["registration"]
    authentication = vector["authentication"]
    cose = bytes.fromhex(registration["expected"]["credentialPublicKey_cose_hex"])
    signed = bytes.fromhex(authentication["derived"]["signed_data_hex"])
    signature = bytes.fromhex(authentication["expected"]["signature_hex"])
    key = CoseKey.parse(cbor.decode(cose))
    key.verify(signed, signature)  # raises on failure

    ours = passkey(
        "verify", "authentication",
        "--response", write(tmp_path, "a.json", authentication["authentication_response_json"]),
        "--challenge=" + authentication["inputs"]["challenge_b64url"], "--origin", "https://example.org",
        "--rp-id", "example.org", "--public-key=" + b64url(cose), *CROSS_ORIGIN,
    )
    assert ours.returncode == 0, ours.stderr.decode()
    assert json.loads(ours.stdout)["signCount"] == authentication["inputs"]["signCount"]

    if '"crossOrigin":true' in bytes.fromhex(authentication["expected"]["clientDataJSON_hex"]).decode():
        refused = passkey(
            "verify", "authentication",
            "--response", write(tmp_path, "a.json", authentication["authentication_response_json"]),
            "--challenge=" + authentication["inputs"]["challenge_b64url"], "--origin", "https://example.org",
            "--rp-id", "example.org", "--public-key=" + b64url(cose),
        )
        assert refused.returncode == 1 and refused.stdout == b""
        assert refused.stderr.decode().startswith("cross-origin-not-allowed:")


@pytest.mark.parametrize("name", W3C)
def test_fido2_decodes_like_our_inspect(passkey, name):
    vector = load("w3c", name)
    attestation = bytes.fromhex(vector["registration"]["expected"]["attestationObject_hex"])
    ours = passkey("inspect", "--json", "-", input=b64url(attestation).encode())
    assert ours.returncode == 0, ours.stderr.decode()
    auth_data = json.loads(ours.stdout)["attestationObject"]["authData"]
    theirs = AttestationObject(attestation)
    assert theirs.fmt == json.loads(ours.stdout)["attestationObject"]["fmt"]
    assert bytes.fromhex(auth_data["rpIdHash"]) == theirs.auth_data.rp_id_hash
    assert int(auth_data["flagsByte"], 16) == theirs.auth_data.flags
    assert auth_data["signCount"] == theirs.auth_data.counter
    credential = theirs.auth_data.credential_data
    assert auth_data["aaguid"] == str(credential.aaguid)
    assert b64url_decode(auth_data["credentialId"]) == credential.credential_id
    assert cbor.decode(b64url_decode(auth_data["credentialPublicKey"]["cose"])) == dict(credential.public_key)


def realworld_cases():
    for name in REALWORLD:
        vector = load("realworld", name)
        fmt = vector.get("attestation_format")
        alg = (vector.get("algorithm") or {}).get("cose_alg")
        if (fmt is None or fmt in SUPPORTED_FORMATS) and alg in SUPPORTED_ALGS | {None}:
            yield name


@pytest.mark.parametrize("name", list(realworld_cases()))
def test_realworld_verdict_matches_vector_and_pywebauthn(passkey, name, tmp_path):
    vector = load("realworld", name)
    rp = vector["rp"]
    origins = rp["expected_origin"] if isinstance(rp["expected_origin"], list) else [rp["expected_origin"]]
    args = ["--response", write(tmp_path, "r.json", vector["response"]),
            "--challenge=" + rp["expected_challenge_b64url"], "--rp-id", rp["expected_rp_id"]]
    for origin in origins:
        args += ["--origin", origin]
    if rp["require_user_verification"]:
        args.append("--require-uv")
    pem = (vector.get("trust_anchors") or {}).get("by_fmt", {})
    if vector["ceremony"] == "registration":
        for fmt, pems in pem.items():
            args += ["--trust-anchor", write(tmp_path, f"{fmt}.pem", "\n".join(pems))]
        if vector.get("verification_time"):
            args += ["--at", vector["verification_time"]]
        ours = passkey("verify", "registration", *args)
    else:
        stored = vector["stored_credential"]
        args += ["--public-key=" + stored["public_key_cose_b64url"], "--sign-count", str(stored["sign_count"])]
        ours = passkey("verify", "authentication", *args)

    expected_reason = (vector.get("failure") or {}).get("reason", "").split(" ")[0]
    if vector["verdict"] == "pass":
        assert ours.returncode == 0, ours.stderr.decode()
    else:
        assert ours.returncode in (1, 2) and ours.stdout == b""
        assert ours.stderr.decode().startswith(expected_reason + ":"), ours.stderr.decode()
        assert len(ours.stderr.decode().strip().splitlines()) == 1

    theirs = pywebauthn_verdict(vector, origins)
    if "py_webauthn" not in json.dumps(vector.get("known_verifier_divergences") or {}):
        assert theirs == vector["verdict"]


def pywebauthn_at(instant: str | None):
    """py_webauthn's certificate checks as of `instant` (its own tests patch the store the same way)."""
    if not instant:
        return contextlib.nullcontext()

    def store() -> X509Store:
        cert_store = X509Store()
        cert_store.set_time(datetime.datetime.fromisoformat(instant.replace("Z", "+00:00")))
        return cert_store

    return mock.patch.object(pywebauthn_chain, "_generate_new_cert_store", store)


def pywebauthn_verdict(vector, origins) -> str:
    rp = vector["rp"]
    try:
        if vector["ceremony"] == "registration":
            with pywebauthn_at(vector.get("verification_time")):
                webauthn.verify_registration_response(
                    credential=vector["response"], expected_challenge=b64url_decode(rp["expected_challenge_b64url"]),
                    expected_origin=origins, expected_rp_id=rp["expected_rp_id"],
                    require_user_verification=rp["require_user_verification"],
                    pem_root_certs_bytes_by_fmt={
                        fmt: [p.encode() for p in pems]
                        for fmt, pems in ((vector.get("trust_anchors") or {}).get("by_fmt") or {}).items()
                    } or None,
                )
        else:
            stored = vector["stored_credential"]
            webauthn.verify_authentication_response(
                credential=vector["response"], expected_challenge=b64url_decode(rp["expected_challenge_b64url"]),
                expected_origin=origins, expected_rp_id=rp["expected_rp_id"],
                credential_public_key=b64url_decode(stored["public_key_cose_b64url"]),
                credential_current_sign_count=stored["sign_count"],
                require_user_verification=rp["require_user_verification"],
            )
        return "pass"
    except Exception:
        return "fail"


FIDO2_ATTESTATION_TYPES = {"BASIC": "basic", "SELF": "self", "ATT_CA": "attCA", "ANON_CA": "anonCA", "NONE": "none"}


def fido2_verifies(fmt: str) -> bool:
    return not issubclass(Attestation.for_type(fmt), UnsupportedAttestation)


def passing_registrations():
    """Every registration of both sets that must verify, in a format we and python-fido2 verify."""
    for name in W3C:
        fmt = load("w3c", name)["attestation_format"]
        if fmt in SUPPORTED_FORMATS and fido2_verifies(fmt):
            yield "w3c", name
    for name in realworld_cases():
        vector = load("realworld", name)
        if vector["ceremony"] == "registration" and vector["verdict"] == "pass" and fido2_verifies(
                vector["attestation_format"]):
            yield "realworld", name


def verify_registration_args(family: str, vector, tmp_path: Path) -> tuple[list[str], list[bytes], dict]:
    """`passkey verify registration` arguments for a vector, its trust anchors (DER) and its response."""
    if family == "w3c":
        registration = vector["registration"]
        response = registration["registration_response_json"]
        root = w3c_root_pem()
        args = ["--challenge=" + registration["inputs"]["challenge_b64url"], "--origin", "https://example.org",
                "--rp-id", "example.org", "--trust-anchor", write(tmp_path, "root.pem", root), *CROSS_ORIGIN]
        pems = [root]
    else:
        rp = vector["rp"]
        response = vector["response"]
        origins = rp["expected_origin"] if isinstance(rp["expected_origin"], list) else [rp["expected_origin"]]
        args = ["--challenge=" + rp["expected_challenge_b64url"], "--rp-id", rp["expected_rp_id"]]
        for origin in origins:
            args += ["--origin", origin]
        pems = [p for ps in ((vector.get("trust_anchors") or {}).get("by_fmt") or {}).values() for p in ps]
        for index, pem in enumerate(pems):
            args += ["--trust-anchor", write(tmp_path, f"anchor{index}.pem", pem)]
        if vector.get("verification_time"):
            args += ["--at", vector["verification_time"]]
    anchors = [pem_der(pem) for pem in pems]
    return ["--response", write(tmp_path, "r.json", response), *args], anchors, response


def pem_der(pem: str) -> bytes:
    body = "".join(line for line in pem.strip().splitlines() if not line.startswith("-----"))
    return base64.b64decode(body)


@pytest.mark.parametrize("family,name", list(passing_registrations()))
def test_fido2_verifies_the_statement_as_we_do(passkey, family, name, tmp_path):
    """python-fido2 runs the format's procedure on the same statement and reaches our attestation
    type; where we say the path reached an anchor, python-fido2 verifies that chain too."""
    vector = load(family, name)
    args, anchors, response = verify_registration_args(family, vector, tmp_path)
    ours = passkey("verify", "registration", *args)
    assert ours.returncode == 0, ours.stderr.decode()
    ours = json.loads(ours.stdout)

    attestation = AttestationObject(b64url_decode(response["response"]["attestationObject"]))
    client_data_hash = hashlib.sha256(b64url_decode(response["response"]["clientDataJSON"])).digest()
    verify = lambda: Attestation.for_type(attestation.fmt)().verify(  # noqa: E731
        attestation.att_stmt, attestation.auth_data, client_data_hash)
    if family == "w3c" and "fido2" in W3C_DIVERGENCES.get(name, {}):
        with pytest.raises(Exception, match=W3C_DIVERGENCES[name]["fido2"]):
            verify()
        return
    theirs = verify()
    assert FIDO2_ATTESTATION_TYPES[theirs.attestation_type.name] == ours["attestationType"]
    assert [b64url_decode(der) for der in ours["trustPath"]] == theirs.trust_path
    if ours["attestationTrusted"]:
        assert any(_chains(theirs.trust_path, anchor) for anchor in anchors)


def _chains(trust_path: list[bytes], anchor: bytes) -> bool:
    try:
        verify_x509_chain(trust_path + [anchor])
        return True
    except Exception:
        return False


def test_refusal_contract(passkey, tmp_path):
    """A failed check: exit 1, nothing on stdout, one stderr line starting with the reason.
    Input that does not parse: exit 2."""
    vector = load("w3c", "none-es256.json")
    registration = vector["registration"]
    response = write(tmp_path, "r.json", registration["registration_response_json"])
    wrong = passkey("verify", "registration", "--response", response, "--challenge",
                    registration["inputs"]["challenge_b64url"], "--origin", "https://evil.example",
                    "--rp-id", "example.org")
    assert wrong.returncode == 1 and wrong.stdout == b""
    assert wrong.stderr.decode().startswith("wrong-origin: ")
    assert len(wrong.stderr.decode().splitlines()) == 1

    broken = passkey("verify", "registration", "--response", write(tmp_path, "bad.json", '{"id": '),
                     "--challenge", "AAAA", "--origin", "https://example.org", "--rp-id", "example.org")
    assert broken.returncode == 2 and broken.stdout == b""
    assert broken.stderr.decode().startswith("malformed-json: ")

    truncated = dict(registration["registration_response_json"])
    truncated["response"] = dict(truncated["response"])
    truncated["response"]["attestationObject"] = truncated["response"]["attestationObject"][:40]
    cut = passkey("verify", "registration", "--response", write(tmp_path, "cut.json", truncated), "--challenge",
                  registration["inputs"]["challenge_b64url"], "--origin", "https://example.org",
                  "--rp-id", "example.org")
    assert cut.returncode == 2 and cut.stdout == b""
    assert cut.stderr.decode().startswith("malformed-attestation-object: ")
    assert "at byte" in cut.stderr.decode()
