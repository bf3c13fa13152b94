"""`passkey device --socket` managed as python-fido2 manages a CTAP 2.1 key: CredentialManagement
(§6.8: metadata, RPs, credentials per RP, updateUserInformation, delete), LargeBlobs (§6.10: the
serialized array, per-credential blobs under their largeBlobKey), and Reset (§6.6), which leaves
nothing behind: no credential, no PIN, no large blob."""

import hashlib
import os

import pytest
from fido2.client import DefaultClientDataCollector, Fido2Client
from fido2.ctap import CtapError
from fido2.ctap2 import Ctap2
from fido2.ctap2.blob import LargeBlobs
from fido2.ctap2.credman import CredentialManagement
from fido2.ctap2.pin import ClientPin

from conftest import b64url
from ctap_socket import open_device, running_device
from test_ctap_client import ORIGIN, authenticate, b64url_decode, register
from test_ctap_pin import PIN, TypesPin

RP_IDS = ["example.org", "example.com"]


def make_credential(ctap, pin, rp_id, user_id, extensions=None):
    """A resident credential made under a fresh mc token; the attestation."""
    token = pin.get_pin_token(PIN, ClientPin.PERMISSION.MAKE_CREDENTIAL, rp_id)
    client_data_hash = hashlib.sha256(rp_id.encode() + user_id).digest()
    return ctap.make_credential(
        client_data_hash, {"id": rp_id, "name": rp_id}, {"id": user_id, "name": user_id.decode()},
        [{"type": "public-key", "alg": -7}], options={"rk": True}, extensions=extensions,
        pin_uv_param=pin.protocol.authenticate(token, client_data_hash), pin_uv_protocol=pin.protocol.VERSION,
    )


def with_pin(path):
    """The device's Ctap2 and a ClientPin, the PIN set."""
    ctap = Ctap2(open_device(path))
    pin = ClientPin(ctap)
    pin.set_pin(PIN)
    return ctap, pin


def credential_manager(ctap, pin, rp_id=None):
    token = pin.get_pin_token(PIN, ClientPin.PERMISSION.CREDENTIAL_MGMT, rp_id)
    return CredentialManagement(ctap, pin.protocol, token)


def test_enumerate_update_and_delete_credentials(tmp_path):
    with running_device(tmp_path) as path:
        ctap, pin = with_pin(path)
        assert ctap.info.options["credMgmt"] is True
        made = {(rp, user): make_credential(ctap, pin, rp, user) for rp in RP_IDS for user in (b"ada", b"bob")}

        manager = credential_manager(ctap, pin)
        metadata = manager.get_metadata()
        assert metadata[CredentialManagement.RESULT.EXISTING_CRED_COUNT] == 4
        assert metadata[CredentialManagement.RESULT.MAX_REMAINING_COUNT] > 0
        rps = manager.enumerate_rps()
        assert sorted(rp[CredentialManagement.RESULT.RP]["id"] for rp in rps) == sorted(RP_IDS)
        for rp in rps:
            rp_id = rp[CredentialManagement.RESULT.RP]["id"]
            assert rp[CredentialManagement.RESULT.RP_ID_HASH] == hashlib.sha256(rp_id.encode()).digest()
            creds = manager.enumerate_creds(rp[CredentialManagement.RESULT.RP_ID_HASH])
            assert sorted(c[CredentialManagement.RESULT.USER]["id"] for c in creds) == [b"ada", b"bob"]
            for cred in creds:
                user_id = cred[CredentialManagement.RESULT.USER]["id"]
                attested = made[(rp_id, user_id)].auth_data.credential_data
                assert cred[CredentialManagement.RESULT.CREDENTIAL_ID]["id"] == attested.credential_id
                assert cred[CredentialManagement.RESULT.PUBLIC_KEY] == attested.public_key

        # updateUserInformation: the name changes, the assertion returns it.
        ada = made[("example.org", b"ada")].auth_data.credential_data.credential_id
        descriptor = {"type": "public-key", "id": ada}
        manager = credential_manager(ctap, pin)
        manager.update_user_info(descriptor, {"id": b"ada", "name": "ada@example.org", "displayName": "Ada L."})
        creds = manager.enumerate_creds(hashlib.sha256(b"example.org").digest())
        renamed = [c[CredentialManagement.RESULT.USER] for c in creds if c[CredentialManagement.RESULT.USER]["id"] == b"ada"]
        assert renamed == [{"id": b"ada", "name": "ada@example.org", "displayName": "Ada L."}]

        # deleteCredential: gone from the enumeration and from getAssertion.
        manager.delete_cred(descriptor)
        assert manager.get_metadata()[CredentialManagement.RESULT.EXISTING_CRED_COUNT] == 3
        token = pin.get_pin_token(PIN, ClientPin.PERMISSION.GET_ASSERTION, "example.org")
        client_data_hash = hashlib.sha256(b"after delete").digest()
        with pytest.raises(CtapError) as gone:
            ctap.get_assertion(
                "example.org", client_data_hash, [descriptor],
                pin_uv_param=pin.protocol.authenticate(token, client_data_hash), pin_uv_protocol=pin.protocol.VERSION)
        assert gone.value.code == CtapError.ERR.NO_CREDENTIALS


def test_a_token_bound_to_one_rp_manages_only_that_rp(tmp_path):
    with running_device(tmp_path) as path:
        ctap, pin = with_pin(path)
        other = make_credential(ctap, pin, "example.com", b"ada").auth_data.credential_data.credential_id
        make_credential(ctap, pin, "example.org", b"ada")
        bound = credential_manager(ctap, pin, rp_id="example.org")
        assert len(bound.enumerate_creds(hashlib.sha256(b"example.org").digest())) == 1
        with pytest.raises(CtapError) as refused:
            bound.delete_cred({"type": "public-key", "id": other})
        assert refused.value.code == CtapError.ERR.PIN_AUTH_INVALID


def test_large_blobs_written_and_read_per_credential(tmp_path):
    with running_device(tmp_path) as path:
        ctap, pin = with_pin(path)
        assert ctap.info.options["largeBlobs"] is True
        key = make_credential(ctap, pin, "example.org", b"ada", extensions={"largeBlobKey": True}).large_blob_key
        assert len(key) == 32
        token = pin.get_pin_token(PIN, ClientPin.PERMISSION.LARGE_BLOB_WRITE)
        blobs = LargeBlobs(ctap, pin.protocol, token)
        assert blobs.read_blob_array() == []
        data = bytes(range(256)) * 12  # larger than one fragment: several set calls
        blobs.put_blob(key, data)
        assert LargeBlobs(ctap).get_blob(key) == data
        assert LargeBlobs(ctap).get_blob(bytes(32)) is None
        # Without a token, a write is refused once a PIN is set.
        with pytest.raises(CtapError) as refused:
            LargeBlobs(ctap).put_blob(key, b"other")
        assert refused.value.code == CtapError.ERR.PUAT_REQUIRED
        blobs.delete_blob(key)
        assert LargeBlobs(ctap).get_blob(key) is None


def test_reset_clears_credentials_pin_and_large_blobs(tmp_path):
    store = tmp_path / "store"
    with running_device(tmp_path, store=store) as path:
        ctap, pin = with_pin(path)
        key = make_credential(ctap, pin, "example.org", b"ada", extensions={"largeBlobKey": True}).large_blob_key
        LargeBlobs(ctap, pin.protocol, pin.get_pin_token(PIN, ClientPin.PERMISSION.LARGE_BLOB_WRITE)).put_blob(
            key, b"a secret note")

    # Reset is allowed only just after power-up (§6.6): a restart, then Reset first.
    with running_device(tmp_path, "--allow-reset", store=store) as path:
        ctap = Ctap2(open_device(path))
        ctap.reset()
        info = ctap.get_info()
        assert info.options["clientPin"] is False
        assert ClientPin(ctap).get_pin_retries()[0] == 8
        assert LargeBlobs(ctap).read_blob_array() == []
        with pytest.raises(CtapError) as gone:
            ctap.get_assertion("example.org", hashlib.sha256(b"after reset").digest())
        assert gone.value.code == CtapError.ERR.NO_CREDENTIALS
        # A new PIN can be set, and nothing is enumerated under it.
        pin = ClientPin(ctap)
        pin.set_pin(PIN)
        assert credential_manager(ctap, pin).get_metadata()[CredentialManagement.RESULT.EXISTING_CRED_COUNT] == 0


def test_fido2_client_writes_and_reads_a_large_blob_through_the_extension(tmp_path):
    with running_device(tmp_path) as path:
        ClientPin(Ctap2(open_device(path))).set_pin(PIN)
        client = Fido2Client(open_device(path), DefaultClientDataCollector(ORIGIN), TypesPin(PIN))
        verified, response = register(client, extensions={"largeBlob": {"support": "required"}})
        assert response.client_extension_results["largeBlob"]["supported"] is True
        blob = os.urandom(100)
        written = authenticate(client, verified, extensions={"largeBlob": {"write": b64url(blob)}})
        assert written.client_extension_results["largeBlob"]["written"] is True
        read = authenticate(client, verified, extensions={"largeBlob": {"read": True}})
        assert b64url_decode(read.client_extension_results["largeBlob"]["blob"]) == blob
