"""Fixtures: one `passkey serve` for the module, a fresh session and authenticator per test."""

import pytest

from passkey_serve import PasskeyServe
from rp_app import create_app


@pytest.fixture(scope="session")
def passkey_server():
    server = PasskeyServe()
    yield server
    assert server.stop() == 0, "passkey serve exits 0 on SIGTERM"


@pytest.fixture
def authenticator(passkey_server):
    """A platform-like authenticator: internal transport, resident keys, user verification."""
    session = passkey_server.new_session()
    yield session.add_authenticator(
        protocol="ctap2", transport="internal", hasResidentKey=True, hasUserVerification=True,
        isUserVerified=True,
    )
    session.delete()


@pytest.fixture
def rp():
    """The Flask relying party's test client."""
    return create_app().test_client()
