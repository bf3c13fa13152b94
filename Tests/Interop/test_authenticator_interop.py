"""Independent verifiers judge what `passkey create` and `passkey get` produce.

Options come from py_webauthn (the relying party's side); our CLI answers; py_webauthn and
python-fido2 each verify the answer as a relying party would (DESIGN.md "Generic WebAuthn in and
out", issue 3). Refusals are checked against the CLI contract: exit status, nothing on standard
output, one standard-error line starting with the WebAuthn error name.
"""

import base64
import json
import os
from dataclasses import dataclass, field

import pytest
import webauthn
from cryptography.hazmat.primitives.serialization import load_der_public_key
from fido2 import cbor
from fido2.attestation import Attestation, AttestationType
from fido2.cose import CoseKey
from fido2.server import Fido2Server
from fido2.webauthn import (
    AttestationConveyancePreference as Fido2Conveyance,
    AttestationObject,
    AttestedCredentialData,
    AuthenticatorData,
    CollectedClientData,
    PublicKeyCredentialRpEntity,
    PublicKeyCredentialUserEntity,
)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.exceptions import InvalidAuthenticationResponse, InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    CredentialDeviceType,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from conftest import ceremony, listed, refused, succeeded

RP_ID = "example.com"
ORIGIN = "https://example.com"
ES256, EDDSA, RS256, PS256 = -7, -8, -257, -37
ZERO_AAGUID = "00000000-0000-0000-0000-000000000000"
SECURITY_KEY_AAGUID = "5e6a1b8c-2f3d-4c71-9a0e-7b4d3c2e1f60"


@dataclass(frozen=True)
class Profile:
    name: str
    attachment: str
    transports: list
    aaguid: str
    backed_up: bool
    always_uv: bool
    always_discoverable: bool
    counts: bool


PROFILES = {
    "platform": Profile("platform", "platform", ["hybrid", "internal"], ZERO_AAGUID, True, True, True, False),
    "security-key": Profile(
        "security-key", "cross-platform", ["usb"], SECURITY_KEY_AAGUID, False, False, False, True
    ),
}


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def value(enum_or_str):
    return getattr(enum_or_str, "value", enum_or_str)


def auth_data_of(response: dict) -> AuthenticatorData:
    """The authenticator data of either kind of response, decoded by python-fido2."""
    inner = response["response"]
    if "attestationObject" in inner:
        return AttestationObject(b64url_decode(inner["attestationObject"])).auth_data
    return AuthenticatorData(b64url_decode(inner["authenticatorData"]))


# --- python-fido2 as the second, independent relying party -----------------------------------------


def fido2_attestation_check(attestation_object: AttestationObject, client_data_hash: bytes) -> None:
    """fido2's own statement verifier for the format; our only non-`none` format is packed *self*
    attestation, which has no trust path, so the result type must be SELF."""
    result = Attestation.for_type(attestation_object.fmt)().verify(
        attestation_object.att_stmt, attestation_object.auth_data, client_data_hash
    )
    expected = AttestationType.SELF if attestation_object.fmt == "packed" else AttestationType.NONE
    assert result.attestation_type == expected, result


def fido2_server(rp_id: str, origin: str) -> Fido2Server:
    # Attestation DIRECT makes fido2 always run the statement check, `none` included
    # (it ignores attestation otherwise).
    return Fido2Server(
        PublicKeyCredentialRpEntity(name="Example", id=rp_id),
        attestation=Fido2Conveyance.DIRECT,
        verify_origin=lambda o: o == origin,
        verify_attestation=fido2_attestation_check,
    )


def fido2_register(options: dict, response: dict, origin: str) -> AuthenticatorData:
    server = fido2_server(options["rp"]["id"], origin)
    user = PublicKeyCredentialUserEntity(name=options["user"]["name"], id=b64url_decode(options["user"]["id"]))
    uv = (options.get("authenticatorSelection") or {}).get("userVerification")
    _, state = server.register_begin(user, challenge=b64url_decode(options["challenge"]), user_verification=uv)
    return server.register_complete(state, response)


def fido2_authenticate(options: dict, response: dict, origin: str, credential: AttestedCredentialData):
    server = fido2_server(options["rpId"], origin)
    _, state = server.authenticate_begin(
        [credential], user_verification=options.get("userVerification"),
        challenge=b64url_decode(options["challenge"]),
    )
    return server.authenticate_complete(state, [credential], response)


# --- The relying party ---------------------------------------------------------------------------


@dataclass
class Credential:
    id: str
    user_name: str
    user_id: bytes
    public_key: bytes  # COSE, as py_webauthn returns it
    fido2: AttestedCredentialData
    sign_count: int = 0


@dataclass
class RelyingParty:
    """A relying party that generates options with py_webauthn, runs our CLI, and verifies the
    answers with py_webauthn and python-fido2."""

    passkey: object
    store: object
    rp_id: str = RP_ID
    origin: str = ORIGIN
    credentials: dict = field(default_factory=dict)

    def creation_options(
        self, user_name="alice", *, user_id=None, attestation="none", algs=(EDDSA, ES256, RS256),
        uv=None, resident_key=None, exclude=(), extensions=None,
    ) -> dict:
        selection = None
        if uv or resident_key:
            selection = AuthenticatorSelectionCriteria(
                user_verification=UserVerificationRequirement(uv or "preferred"),
                resident_key=ResidentKeyRequirement(resident_key or "discouraged"),
            )
        options = webauthn.generate_registration_options(
            rp_id=self.rp_id, rp_name="Example", user_name=user_name, user_id=user_id,
            attestation=AttestationConveyancePreference(attestation),
            authenticator_selection=selection,
            exclude_credentials=[PublicKeyCredentialDescriptor(id=b64url_decode(i)) for i in exclude],
            supported_pub_key_algs=[COSEAlgorithmIdentifier(a) for a in algs],
        )
        options = json.loads(webauthn.options_to_json(options))
        if extensions is not None:
            options["extensions"] = extensions
        return options

    def request_options(self, *, allow=(), uv=None) -> dict:
        options = webauthn.generate_authentication_options(
            rp_id=self.rp_id,
            allow_credentials=[PublicKeyCredentialDescriptor(id=b64url_decode(i)) for i in allow],
            user_verification=UserVerificationRequirement(uv or "preferred"),
        )
        return json.loads(webauthn.options_to_json(options))

    def create(self, options: dict, *extra):
        return ceremony(self.passkey, "create", options, self.origin, self.store, *extra)

    def get(self, options: dict, *extra):
        return ceremony(self.passkey, "get", options, self.origin, self.store, *extra)

    def verify_registration(self, options: dict, response: dict, *, fido2=True):
        """Both verifiers accept the registration; the credential is remembered."""
        uv_required = (options.get("authenticatorSelection") or {}).get("userVerification") == "required"
        verified = webauthn.verify_registration_response(
            credential=response, expected_challenge=b64url_decode(options["challenge"]),
            expected_rp_id=self.rp_id, expected_origin=self.origin, require_user_verification=uv_required,
            **supported_algorithms(options),
        )
        fido2_data = fido2_register(options, response, self.origin) if fido2 else auth_data_of(response)
        assert fido2_data.credential_data is not None
        self.credentials[response["id"]] = Credential(
            response["id"], options["user"]["name"], b64url_decode(options["user"]["id"]),
            verified.credential_public_key, fido2_data.credential_data, verified.sign_count,
        )
        return verified, fido2_data

    def verify_authentication(self, options: dict, response: dict, *, fido2=True):
        """Both verifiers accept the assertion; the stored sign count advances as py_webauthn says."""
        credential = self.credentials[response["rawId"]]
        verified = webauthn.verify_authentication_response(
            credential=response, expected_challenge=b64url_decode(options["challenge"]),
            expected_rp_id=self.rp_id, expected_origin=self.origin,
            credential_public_key=credential.public_key, credential_current_sign_count=credential.sign_count,
            require_user_verification=options.get("userVerification") == "required",
        )
        if fido2:
            assert fido2_authenticate(options, response, self.origin, credential.fido2) is credential.fido2
        credential.sign_count = verified.new_sign_count
        return verified

    def register(self, user_name="alice", *, extra=(), fido2=True, **kwargs):
        options = self.creation_options(user_name, **kwargs)
        response = succeeded(self.create(options, *extra))
        verified, fido2_data = self.verify_registration(options, response, fido2=fido2)
        return options, response, verified, fido2_data

    def sign_in(self, *, allow=(), uv=None, extra=(), fido2=True):
        options = self.request_options(allow=allow, uv=uv)
        response = succeeded(self.get(options, *extra))
        return options, response, self.verify_authentication(options, response, fido2=fido2)


@pytest.fixture
def rp(passkey, tmp_path):
    return RelyingParty(passkey, tmp_path / "store")


def profile_args(profile: str) -> tuple:
    return ("--profile", profile)


def expected_format(profile: str, attestation: str) -> str:
    return "packed" if profile == "security-key" and attestation != "none" else "none"


def check_registration_envelope(response: dict, options: dict, profile: Profile, alg: int):
    """The RegistrationResponseJSON members py_webauthn and fido2 do not look at (WebAuthn L3
    §5.2.1.1 toJSON): id, attachment, transports, publicKey/publicKeyAlgorithm, authenticatorData."""
    assert response["id"] == response["rawId"]
    assert response["type"] == "public-key"
    assert response["authenticatorAttachment"] == profile.attachment
    inner = response["response"]
    assert sorted(inner["transports"]) == profile.transports
    attestation = AttestationObject(b64url_decode(inner["attestationObject"]))
    assert b64url_decode(inner["authenticatorData"]) == bytes(attestation.auth_data)
    cose = attestation.auth_data.credential_data.public_key
    assert cose.ALGORITHM == alg == inner["publicKeyAlgorithm"]
    spki = load_der_public_key(b64url_decode(inner["publicKey"]))
    assert dict(CoseKey.for_alg(alg).from_cryptography_key(spki)) == dict(cose)
    client_data = CollectedClientData(b64url_decode(inner["clientDataJSON"]))
    assert client_data.type == "webauthn.create"
    assert client_data.challenge == b64url_decode(options["challenge"])
    assert client_data.origin == ORIGIN
    assert client_data.cross_origin is False


def supported_algorithms(options: dict) -> dict:
    """py_webauthn's supported_pub_key_algs for the options' algorithms (its default lacks PS256);
    its default when the options list none (WebAuthn L3 §5.1.3 step 10: ES256 and RS256)."""
    algs = [COSEAlgorithmIdentifier(p["alg"]) for p in options["pubKeyCredParams"]]
    return {"supported_pub_key_algs": algs} if algs else {}


# --- Registration and sign-in across profiles, formats and algorithms ------------------------------


@pytest.mark.parametrize(
    "algs,choices",
    [
        ((ES256, EDDSA), {}),
        ((EDDSA, ES256), {}),
        ((RS256, EDDSA, ES256), {"platform": EDDSA, "security-key": RS256}),
        ((PS256, ES256), {"platform": ES256, "security-key": PS256}),
    ],
    ids=["es256-first", "eddsa-first", "rs256-then-eddsa", "ps256-then-es256"],
)
@pytest.mark.parametrize("attestation", ["none", "direct"])
@pytest.mark.parametrize("profile_name", PROFILES)
def test_register_then_sign_in_allow_listed(rp, profile_name, attestation, algs, choices):
    """The first of the RP's algorithms the profile has: the security key has RS256 and PS256
    (RSA-2048), the platform profile ES256 and EdDSA only."""
    alg = choices.get(profile_name, algs[0])
    profile = PROFILES[profile_name]
    options, response, reg, fido2_data = rp.register(attestation=attestation, algs=algs, extra=profile_args(profile_name))

    check_registration_envelope(response, options, profile, alg)
    assert reg.credential_id == b64url_decode(response["id"])
    assert value(reg.fmt) == expected_format(profile_name, attestation)
    assert reg.aaguid == profile.aaguid
    assert reg.sign_count == 0
    assert reg.user_verified is True  # platform always; security-key because UV is "preferred"
    assert reg.credential_backed_up is profile.backed_up
    assert reg.credential_device_type == (
        CredentialDeviceType.MULTI_DEVICE if profile.backed_up else CredentialDeviceType.SINGLE_DEVICE
    )
    assert CoseKey.parse(cbor.decode(reg.credential_public_key)).ALGORITHM == alg
    assert fido2_data.credential_data.credential_id == reg.credential_id
    assert str(fido2_data.credential_data.aaguid) == profile.aaguid
    assert fido2_data.is_backup_eligible() is profile.backed_up
    assert fido2_data.is_backed_up() is profile.backed_up

    counts = []
    for _ in range(3):
        _, assertion, auth = rp.sign_in(allow=[response["id"]])
        assert assertion["id"] == assertion["rawId"] == response["id"]
        assert auth.credential_id == reg.credential_id
        assert auth.user_verified is True
        assert auth.credential_backed_up is profile.backed_up
        assert b64url_decode(assertion["response"]["userHandle"]) == b64url_decode(options["user"]["id"])
        counts.append(auth.new_sign_count)
    assert counts == ([1, 2, 3] if profile.counts else [0, 0, 0])
    assert listed(rp.passkey, rp.store)[0]["signCount"] == (3 if profile.counts else 0)


@pytest.mark.parametrize(
    "profile_name",
    [
        "platform",
        "security-key",
    ],
)
def test_assertion_reports_the_credentials_attachment(rp, profile_name):
    """AuthenticationResponseJSON.authenticatorAttachment is the attachment of the authenticator
    that signed (WebAuthn L3 §5.1 authenticatorAttachment): a security-key credential is
    cross-platform on get as on create."""
    _, response, _, _ = rp.register(extra=profile_args(profile_name))
    _, assertion, _ = rp.sign_in(allow=[response["id"]])
    assert assertion["authenticatorAttachment"] == response["authenticatorAttachment"]
    assert assertion["type"] == "public-key"
    assert assertion["clientExtensionResults"] == {}


@pytest.mark.parametrize("attestation", ["indirect", "enterprise"])
def test_security_key_self_attests_for_indirect_and_enterprise(rp, attestation):
    _, _, reg, _ = rp.register(attestation=attestation, extra=profile_args("security-key"))
    assert value(reg.fmt) == "packed"


@pytest.mark.parametrize("profile_name", PROFILES)
def test_discoverable_sign_in(rp, profile_name):
    """An empty allowCredentials finds the discoverable credential and returns its user handle."""
    resident = None if profile_name == "platform" else "required"
    options, response, _, _ = rp.register(resident_key=resident, extra=profile_args(profile_name))
    request, assertion, auth = rp.sign_in(allow=())
    assert "allowCredentials" not in request or request["allowCredentials"] == []
    assert assertion["id"] == response["id"]
    assert assertion["response"]["userHandle"] == options["user"]["id"]
    assert auth.new_sign_count == (1 if profile_name == "security-key" else 0)


def test_security_key_non_discoverable_is_not_found_without_allow_list(rp):
    rp.register(extra=profile_args("security-key"))  # residentKey discouraged
    assert listed(rp.passkey, rp.store)[0]["discoverable"] is False
    refused(rp.get(rp.request_options(allow=())), "NotAllowedError")


@pytest.mark.parametrize("profile_name", PROFILES)
def test_user_verification_required(rp, profile_name):
    _, response, reg, fido2_data = rp.register(uv="required", extra=profile_args(profile_name))
    assert reg.user_verified is True and fido2_data.is_user_verified()
    _, _, auth = rp.sign_in(allow=[response["id"]], uv="required")
    assert auth.user_verified is True


@pytest.mark.parametrize("profile_name", PROFILES)
def test_user_verification_discouraged(rp, profile_name):
    """The platform profile verifies anyway (Face ID); the security key only when asked."""
    profile = PROFILES[profile_name]
    _, response, reg, _ = rp.register(uv="discouraged", extra=profile_args(profile_name))
    assert reg.user_verified is profile.always_uv
    _, _, auth = rp.sign_in(allow=[response["id"]], uv="discouraged")
    assert auth.user_verified is profile.always_uv


@pytest.mark.parametrize(
    "profile_name,resident_key,rk",
    [("platform", None, True), ("platform", "discouraged", True), ("platform", "required", True),
     ("security-key", None, False), ("security-key", "discouraged", False),
     ("security-key", "preferred", True), ("security-key", "required", True)],
)
def test_cred_props(rp, profile_name, resident_key, rk):
    _, response, _, _ = rp.register(
        resident_key=resident_key, extensions={"credProps": True}, extra=profile_args(profile_name)
    )
    assert response["clientExtensionResults"] == {"credProps": {"rk": rk}}
    assert listed(rp.passkey, rp.store)[0]["discoverable"] is rk


def test_no_cred_props_output_unless_asked(rp):
    _, response, _, _ = rp.register()
    assert response["clientExtensionResults"] == {}


def test_two_users_in_one_store(rp):
    """--user picks an account; with none, the most recently created discoverable credential signs."""
    alice_options, alice, _, _ = rp.register("alice")
    bob_options, bob, _, _ = rp.register("bob")
    assert {c["userName"] for c in listed(rp.passkey, rp.store)} == {"alice", "bob"}

    _, default, _ = rp.sign_in()
    assert default["id"] == bob["id"]
    assert default["response"]["userHandle"] == bob_options["user"]["id"]

    _, chosen, _ = rp.sign_in(extra=("--user", "alice"))
    assert chosen["id"] == alice["id"]
    assert chosen["response"]["userHandle"] == alice_options["user"]["id"]

    _, chosen, _ = rp.sign_in(allow=[alice["id"], bob["id"]], extra=("--user", "alice"))
    assert chosen["id"] == alice["id"]

    _, chosen, _ = rp.sign_in(extra=(f"--credential={alice['id']}",))
    assert chosen["id"] == alice["id"]

    refused(rp.get(rp.request_options(), "--user", "carol"), "NotAllowedError")
    refused(rp.get(rp.request_options(allow=[bob["id"]]), "--user", "alice"), "NotAllowedError")


@pytest.mark.parametrize(
    "origin,rp_id",
    [("http://localhost:8080", "localhost"), ("http://app.localhost", "app.localhost"),
     ("http://127.0.0.1:8080", "127.0.0.1"), ("https://192.0.2.10", "192.0.2.10")],
)
def test_localhost_loopback_and_ip_origins(passkey, tmp_path, origin, rp_id):
    """http is a secure context on localhost and loopback (W3C Secure Contexts); an IP address is
    its own RP ID. Both verifiers accept the answers."""
    local = RelyingParty(passkey, tmp_path / "store", rp_id=rp_id, origin=origin)
    _, response, _, _ = local.register()
    local.sign_in(allow=[response["id"]])


# --- Refusals --------------------------------------------------------------------------------------


@pytest.mark.parametrize("profile_name", PROFILES)
def test_exclude_list_hit_is_invalid_state_and_store_unchanged(rp, profile_name):
    _, first, _, _ = rp.register(extra=profile_args(profile_name))
    before = listed(rp.passkey, rp.store)
    other = rp.creation_options("alice-2", exclude=[b64url(os.urandom(16)), first["id"]])
    refused(rp.create(other, *profile_args(profile_name)), "InvalidStateError")
    assert listed(rp.passkey, rp.store) == before


def test_exclude_list_of_unknown_ids_registers(rp):
    rp.register(exclude=[b64url(os.urandom(16))])


@pytest.mark.parametrize("profile_name", PROFILES)
def test_no_supported_algorithm(rp, profile_name):
    options = rp.creation_options(algs=(-36,))  # ES512: neither profile has it
    refused(rp.create(options, *profile_args(profile_name)), "NotSupportedError")
    assert listed(rp.passkey, rp.store) == []


@pytest.mark.parametrize(
    "origin,rp_id",
    [
        ("https://evil.example", "example.com"),  # another site
        ("https://example.com", "login.example.com"),  # RP ID is a subdomain, not a suffix
        ("https://badexample.com", "example.com"),  # suffix but not on a label boundary
        pytest.param("https://example.com", "com", id="public-suffix-com"),
        pytest.param("https://foo.github.io", "github.io", id="public-suffix-github.io"),
        ("http://example.com", "example.com"),  # http off localhost
        ("http://127.0.0.1.example.com", "example.com"),  # not loopback, only looks like it
        ("ftp://example.com", "example.com"),
        ("https://192.0.2.10", "0.2.10"),  # an IP address matches only itself
        ("http://app.localhost", "localhost"),  # unlisted in the PSL, so a public suffix by its "*" rule
        ("http://192.0.2.10", "192.0.2.10"),  # http on an address that is not loopback
    ],
)
@pytest.mark.parametrize("verb", ["create", "get"])
def test_origin_and_rp_id_refused(passkey, tmp_path, verb, origin, rp_id):
    store = tmp_path / "store"
    rp = RelyingParty(passkey, store, rp_id=rp_id)
    options = rp.creation_options() if verb == "create" else rp.request_options()
    refused(ceremony(passkey, verb, options, origin, store), "SecurityError")


@pytest.mark.parametrize("simulation", ["cancel", "timeout"])
@pytest.mark.parametrize("verb", ["create", "get"])
def test_user_cancel_and_timeout(rp, verb, simulation):
    _, response, _, _ = rp.register()
    before = listed(rp.passkey, rp.store)
    if verb == "create":
        result = rp.create(rp.creation_options("bob"), "--simulate", simulation)
    else:
        result = rp.get(rp.request_options(allow=[response["id"]]), "--simulate", simulation)
    refused(result, "NotAllowedError")
    assert listed(rp.passkey, rp.store) == before


def test_unknown_credential_in_allow_list(rp):
    rp.register()
    refused(rp.get(rp.request_options(allow=[b64url(os.urandom(16))])), "NotAllowedError")


def test_empty_store_discoverable(rp):
    refused(rp.get(rp.request_options()), "NotAllowedError")


def test_credential_of_another_rp_is_not_used(passkey, tmp_path):
    store = tmp_path / "store"
    theirs = RelyingParty(passkey, store, rp_id="other.example", origin="https://other.example")
    _, response, _, _ = theirs.register()
    ours = RelyingParty(passkey, store)
    refused(ours.get(ours.request_options(allow=[response["id"]])), "NotAllowedError")
    refused(ours.get(ours.request_options()), "NotAllowedError")


MALFORMED = {
    "truncated": b'{"challenge": "AAAA',
    "not-json": b"challenge=AAAA",
    "empty": b"",
    "array": b"[]",
    "missing-challenge": None,
    "challenge-not-base64url": None,
}


@pytest.mark.parametrize("case", MALFORMED)
@pytest.mark.parametrize("verb", ["create", "get"])
def test_malformed_options(rp, verb, case):
    options = MALFORMED[case]
    if options is None:
        options = rp.creation_options() if verb == "create" else rp.request_options()
        if case == "missing-challenge":
            del options["challenge"]
        else:
            options["challenge"] = "not base64url!"
        options = json.dumps(options).encode()
    refused(ceremony(rp.passkey, verb, options, ORIGIN, rp.store), "SyntaxError", code=2)
    assert listed(rp.passkey, rp.store) == []


# --- Misbehaving authenticator: the relying parties must refuse -----------------------------------


def test_no_presence_registration_is_rejected(rp):
    options = rp.creation_options()
    response = succeeded(rp.create(options, "--simulate", "no-presence"))
    assert not auth_data_of(response).is_user_present()
    with pytest.raises(InvalidRegistrationResponse, match="not present"):
        rp.verify_registration(options, response, fido2=False)
    with pytest.raises(ValueError, match="User Present flag not set"):
        fido2_register(options, response, ORIGIN)


@pytest.mark.parametrize("profile_name", PROFILES)
def test_no_presence_assertion_is_rejected(rp, profile_name):
    _, registered, _, _ = rp.register(extra=profile_args(profile_name))
    options = rp.request_options(allow=[registered["id"]])
    response = succeeded(rp.get(options, "--simulate", "no-presence"))
    assert not auth_data_of(response).is_user_present()
    with pytest.raises(InvalidAuthenticationResponse, match="not present"):
        rp.verify_authentication(options, response, fido2=False)
    with pytest.raises(ValueError, match="User Present flag not set"):
        fido2_authenticate(options, response, ORIGIN, rp.credentials[registered["id"]].fido2)


@pytest.mark.parametrize("attestation", ["direct", "enterprise"])
def test_bogus_attestation_signature_is_rejected(rp, attestation):
    options = rp.creation_options(attestation=attestation)
    response = succeeded(rp.create(options, "--profile", "security-key", "--simulate", "bogus-signature"))
    assert AttestationObject(b64url_decode(response["response"]["attestationObject"])).fmt == "packed"
    with pytest.raises(InvalidRegistrationResponse, match="signature"):
        rp.verify_registration(options, response, fido2=False)
    with pytest.raises(Exception) as raised:
        fido2_register(options, response, ORIGIN)
    assert "InvalidSignature" in type(raised.value).__name__ or "signature" in str(raised.value).lower()


@pytest.mark.parametrize("alg", [ES256, EDDSA])
@pytest.mark.parametrize("profile_name", PROFILES)
def test_bogus_assertion_signature_is_rejected(rp, profile_name, alg):
    _, registered, _, _ = rp.register(algs=(alg,), extra=profile_args(profile_name))
    options = rp.request_options(allow=[registered["id"]])
    response = succeeded(rp.get(options, "--simulate", "bogus-signature"))
    with pytest.raises(InvalidAuthenticationResponse, match="signature"):
        rp.verify_authentication(options, response, fido2=False)
    with pytest.raises(ValueError, match="Invalid signature"):
        fido2_authenticate(options, response, ORIGIN, rp.credentials[registered["id"]].fido2)


@pytest.mark.parametrize("profile_name", PROFILES)
def test_deny_uv_when_required_is_not_allowed(rp, profile_name):
    _, registered, _, _ = rp.register(extra=profile_args(profile_name))
    refused(rp.create(rp.creation_options("bob", uv="required"), *profile_args(profile_name), "--simulate", "deny-uv"),
            "NotAllowedError")
    assert len(listed(rp.passkey, rp.store)) == 1
    refused(rp.get(rp.request_options(allow=[registered["id"]], uv="required"), "--simulate", "deny-uv"),
            "NotAllowedError")


@pytest.mark.parametrize("profile_name", PROFILES)
def test_deny_uv_when_preferred_goes_on_without_uv(rp, profile_name):
    options = rp.creation_options(uv="preferred", resident_key="required")
    response = succeeded(rp.create(options, *profile_args(profile_name), "--simulate", "deny-uv"))
    reg, fido2_data = rp.verify_registration(options, response)
    assert reg.user_verified is False and not fido2_data.is_user_verified()
    assert fido2_data.is_user_present()
    with pytest.raises(InvalidRegistrationResponse, match="verif"):
        webauthn.verify_registration_response(
            credential=response, expected_challenge=b64url_decode(options["challenge"]), expected_rp_id=RP_ID,
            expected_origin=ORIGIN, require_user_verification=True)

    request = rp.request_options(allow=[response["id"]], uv="preferred")
    assertion = succeeded(rp.get(request, "--simulate", "deny-uv"))
    auth = rp.verify_authentication(request, assertion)
    assert auth.user_verified is False


# --- Seeded mode -----------------------------------------------------------------------------------


SEED_A = "00112233445566778899aabbccddeeff"
SEED_B = "ffeeddccbbaa99887766554433221100"


@pytest.mark.parametrize("alg", [ES256, EDDSA])
@pytest.mark.parametrize("profile_name", PROFILES)
def test_seeded_mode_is_reproducible(passkey, tmp_path, profile_name, alg):
    user_id = b"seeded-user-0001"

    def register(store_name, seed, user_id=user_id):
        rp = RelyingParty(passkey, tmp_path / store_name)
        _, response, reg, _ = rp.register(
            "seeded", user_id=user_id, algs=(alg,), extra=(*profile_args(profile_name), "--seed", seed))
        rp.sign_in(allow=[response["id"]], extra=("--seed", seed))
        return response["id"], reg.credential_public_key

    first = register("one", SEED_A)
    assert register("two", SEED_A) == first
    other_seed = register("three", SEED_B)
    assert other_seed[0] != first[0] and other_seed[1] != first[1]
    other_user = register("four", SEED_A, user_id=b"seeded-user-0002")
    assert other_user[0] != first[0] and other_user[1] != first[1]


def test_seeded_second_credential_differs(passkey, tmp_path):
    """A second credential for the same RP and user in one store is not the first one again."""
    rp = RelyingParty(passkey, tmp_path / "store")
    extra = ("--profile", "security-key", "--seed", SEED_A)
    _, first, _, _ = rp.register("seeded", user_id=b"seeded-user-0001", extra=extra)
    _, second, _, _ = rp.register("seeded", user_id=b"seeded-user-0001", extra=extra)
    assert first["id"] != second["id"]
    assert len(listed(passkey, rp.store)) == 2


# --- Volume ----------------------------------------------------------------------------------------


def test_fifty_registrations_and_assertions_in_one_store(rp):
    """50 × (create, get) in one store, distinct users, alternating profiles and the allow-listed and
    discoverable paths, each verified by py_webauthn; every passkey stays listed. (Each ceremony is a
    process of its own; the store's own suites hold hundreds of credentials, and its speed is a
    benchmark's, `passkey-bench authenticator`.)"""
    ids = []
    for i in range(50):
        profile = "platform" if i % 2 == 0 else "security-key"
        user = f"user-{i:03d}"
        options = rp.creation_options(user, resident_key="required")
        response = succeeded(rp.create(options, "--profile", profile))
        rp.verify_registration(options, response, fido2=False)
        # Alternate the allow-listed and the discoverable (--user) paths.
        request = rp.request_options(allow=[response["id"]] if i % 4 < 2 else ())
        extra = () if i % 4 < 2 else ("--user", user)
        assertion = succeeded(rp.get(request, *extra))
        assert assertion["id"] == response["id"]
        auth = rp.verify_authentication(request, assertion, fido2=False)
        assert auth.new_sign_count == (1 if profile == "security-key" else 0)
        ids.append(response["id"])
    assert len(set(ids)) == 50
    assert len(listed(rp.passkey, rp.store)) == 50


# --- Options from python-fido2's server, and other shapes of input ---------------------------------


@pytest.mark.parametrize("profile_name", PROFILES)
def test_fido2_server_options_round_trip(passkey, tmp_path, profile_name):
    """Options made by fido2's Fido2Server (its own JSON mapping, all its algorithms) are accepted,
    and its register_complete / authenticate_complete accept the answers."""
    store = tmp_path / "store"
    server = fido2_server(RP_ID, ORIGIN)
    user = PublicKeyCredentialUserEntity(name="alice", id=b"fido2-user-id", display_name="Alice")
    creation, state = server.register_begin(user, resident_key_requirement="required", user_verification="required")
    options = json.loads(json.dumps(dict(creation.public_key)))
    response = succeeded(ceremony(passkey, "create", options, ORIGIN, store, *profile_args(profile_name)))
    auth_data = server.register_complete(state, response)
    credential = auth_data.credential_data
    assert auth_data.is_user_verified()
    assert credential.public_key.ALGORITHM == next(
        p["alg"] for p in options["pubKeyCredParams"] if p["alg"] in (ES256, EDDSA))

    request, state = server.authenticate_begin([credential], user_verification="required")
    request = json.loads(json.dumps(dict(request.public_key)))
    assertion = succeeded(ceremony(passkey, "get", request, ORIGIN, store))
    assert server.authenticate_complete(state, [credential], assertion) is credential
    assert b64url_decode(assertion["response"]["userHandle"]) == b"fido2-user-id"


def test_rp_id_defaults_to_origin_host(rp):
    options = rp.creation_options()
    del options["rp"]["id"]
    response = succeeded(rp.create(options))
    rp.verify_registration(rp.creation_options() | {"challenge": options["challenge"], "user": options["user"]},
                           response)
    request = rp.request_options(allow=[response["id"]])
    del request["rpId"]
    rp.verify_authentication(request | {"rpId": RP_ID}, succeeded(rp.get(request)))


@pytest.mark.parametrize("origin", ["https://login.example.com", "https://example.com:8443"])
def test_subdomain_and_port_origins(passkey, tmp_path, origin):
    """The RP ID may be a registrable suffix of the origin's host; the port is part of the origin."""
    rp = RelyingParty(passkey, tmp_path / "store", origin=origin)
    _, response, _, _ = rp.register()
    client_data = CollectedClientData(b64url_decode(response["response"]["clientDataJSON"]))
    assert client_data.origin == origin
    rp.sign_in(allow=[response["id"]])


def test_cross_origin_iframe(rp):
    """--top-origin: crossOrigin true and topOrigin in the client data (WebAuthn L3 §5.8.1)."""
    options = rp.creation_options()
    response = succeeded(rp.create(options, "--top-origin", "https://top.example"))
    raw = b64url_decode(response["response"]["clientDataJSON"])
    client_data = json.loads(raw)
    assert list(client_data)[:4] == ["type", "challenge", "origin", "crossOrigin"]
    assert client_data["crossOrigin"] is True and client_data["topOrigin"] == "https://top.example"
    rp.verify_registration(options, response)


def test_client_data_member_order(rp):
    """clientDataJSON is serialized in the spec's order (WebAuthn L3 §5.8.1.1)."""
    _, response, _, _ = rp.register()
    text = b64url_decode(response["response"]["clientDataJSON"]).decode()
    assert text.startswith('{"type":"webauthn.create","challenge":"')
    assert json.loads(text) == {
        "type": "webauthn.create", "challenge": json.loads(text)["challenge"], "origin": ORIGIN, "crossOrigin": False
    }


def test_empty_pub_key_cred_params_defaults_to_es256(rp):
    """An empty pubKeyCredParams means ES256 and RS256 (WebAuthn L3 §5.1.3 step 10)."""
    options = rp.creation_options()
    options["pubKeyCredParams"] = []
    response = succeeded(rp.create(options))
    assert response["response"]["publicKeyAlgorithm"] == ES256
    rp.verify_registration(options, response)


def test_unknown_members_and_hints_are_ignored(rp):
    options = rp.creation_options()
    options["hints"] = ["client-device"]
    options["somethingNew"] = {"nested": [1, 2]}
    options["pubKeyCredParams"].insert(0, {"type": "future-type", "alg": ES256})
    response = succeeded(rp.create(options))
    rp.verify_registration(options, response)


def test_exclude_list_of_another_rp_does_not_block(passkey, tmp_path):
    store = tmp_path / "store"
    theirs = RelyingParty(passkey, store, rp_id="other.example", origin="https://other.example")
    _, response, _, _ = theirs.register()
    RelyingParty(passkey, store).register(exclude=[response["id"]])
    assert len(listed(passkey, store)) == 2


def test_platform_reregistration_replaces_the_users_passkey(rp):
    """A new discoverable credential for the same RP and user handle replaces the old one
    (CTAP 2.1 §6.1.2 step 17): one passkey left, the old ID no longer signs."""
    user_id = os.urandom(16)
    _, old, _, _ = rp.register(user_id=user_id)
    _, new, _, _ = rp.register(user_id=user_id)
    assert [c["id"] for c in listed(rp.passkey, rp.store)] == [new["id"]]
    refused(rp.get(rp.request_options(allow=[old["id"]])), "NotAllowedError")
    _, assertion, _ = rp.sign_in()
    assert assertion["id"] == new["id"]


@pytest.mark.parametrize("wanted,profile_name", [("cross-platform", "platform"), ("platform", "security-key")])
def test_attachment_mismatch_is_not_allowed(rp, wanted, profile_name):
    options = rp.creation_options()
    options["authenticatorSelection"] = {"authenticatorAttachment": wanted}
    refused(rp.create(options, *profile_args(profile_name)), "NotAllowedError")


@pytest.mark.parametrize("length", [0, 65])
def test_user_id_length_out_of_range(rp, length):
    options = rp.creation_options()
    options["user"]["id"] = b64url(b"u" * length)
    refused(rp.create(options), "SyntaxError", code=2)
    assert listed(rp.passkey, rp.store) == []


def test_prf_enabled_on_create(rp):
    _, response, _, _ = rp.register(extensions={"prf": {}})
    assert response["clientExtensionResults"] == {"prf": {"enabled": True}}


def test_prf_results_on_get(rp):
    """prf on get (WebAuthn L3 §10.1.4, issue 3): eval.first gives 32 bytes, the same for the same
    salt and credential, different for another salt."""
    _, response, _, _ = rp.register(extensions={"prf": {}})

    def evaluate(salt: bytes) -> bytes:
        options = rp.request_options(allow=[response["id"]])
        options["extensions"] = {"prf": {"eval": {"first": b64url(salt)}}}
        assertion = succeeded(rp.get(options))
        rp.verify_authentication(options, assertion)
        return b64url_decode(assertion["clientExtensionResults"]["prf"]["results"]["first"])

    one = evaluate(b"salt-one")
    assert len(one) == 32
    assert evaluate(b"salt-one") == one
    assert evaluate(b"salt-two") != one
