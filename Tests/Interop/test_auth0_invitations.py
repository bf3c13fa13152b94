"""Organization invitations through auth0-python's ManagementClient, unmodified, against `passkey tenant serve` over
TLS from a test CA (issue 41): created, listed, read and deleted as on Auth0; the link opens the tenant's signup page
for the invitee; and the refusals Auth0 answers (an unknown organization, a body it does not take)."""

import base64
import hashlib
import json
import secrets
from urllib.parse import parse_qs, urlencode, urlparse

import httpx
import pytest
from auth0.management.core.api_error import ApiError

from conftest import management_client, tls_tenant

ORGANIZATION = "org_acme7C2QkT9xW4pZ"


@pytest.fixture
def tenant(tmp_path, monkeypatch):
    """A TLS tenant with the organization acme, its JSON line and a ManagementClient of its m2m client."""
    config = tmp_path / "tenant.json"
    config.write_text(json.dumps({"organizations": [{"id": ORGANIZATION, "name": "acme", "display_name": "Acme"}],
                                  "organization_usage": "allow"}))
    with tls_tenant(tmp_path, "--config", str(config)) as (line, ca):
        monkeypatch.setenv("SSL_CERT_FILE", str(ca))
        yield line, management_client(line)


def invite(management, line, email="grace@example.com", **extra):
    return management.organizations.invitations.create(
        ORGANIZATION, inviter={"name": "Ada"}, invitee={"email": email}, client_id=line["client_id"], **extra)


def test_an_invitation_is_created_listed_read_and_deleted(tenant):
    line, management = tenant
    created = invite(management, line, ttl_sec=3600, roles=["rol_member"])
    assert created.id.startswith("uinv_")
    assert (created.organization_id, created.invitee.email, created.inviter.name) == (ORGANIZATION,
                                                                                     "grace@example.com", "Ada")
    assert created.roles == ["rol_member"] and created.client_id == line["client_id"]
    assert 3500 < (created.expires_at - created.created_at).total_seconds() <= 3600
    link = parse_qs(urlparse(created.invitation_url).query)
    assert link["invitation"] == [created.ticket_id] and link["organization"] == [ORGANIZATION]
    assert link["organization_name"] == ["acme"]

    listed = management.organizations.invitations.list(ORGANIZATION)
    assert [invitation.id for invitation in listed] == [created.id]
    assert management.organizations.invitations.get(ORGANIZATION, created.id).ticket_id == created.ticket_id

    management.organizations.invitations.delete(ORGANIZATION, created.id)
    assert list(management.organizations.invitations.list(ORGANIZATION)) == []
    with pytest.raises(ApiError) as gone:
        management.organizations.invitations.get(ORGANIZATION, created.id)
    assert gone.value.status_code == 404


def test_the_link_opens_the_signup_for_the_invitee(tenant):
    line, management = tenant
    created = invite(management, line)
    link = parse_qs(urlparse(created.invitation_url).query)
    verifier = secrets.token_urlsafe(32)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = urlencode({
        "client_id": line["client_id"], "response_type": "code", "redirect_uri": "http://127.0.0.1/callback",
        "scope": "openid", "code_challenge": challenge, "code_challenge_method": "S256",
        "invitation": link["invitation"][0], "organization": link["organization"][0],
    })
    # The RP ID is localhost: the page is served there (from 127.0.0.1 the tenant redirects to it).
    page = httpx.get(line["url"].replace("127.0.0.1", "localhost") + f"/authorize?{query}")
    assert page.status_code == 200
    assert 'data-screen="signup"' in page.text and 'value="grace@example.com"' in page.text


def test_the_refusals_are_auth0s(tenant):
    line, management = tenant
    with pytest.raises(ApiError) as unknown:
        management.organizations.invitations.create(
            "org_nobody", inviter={"name": "Ada"}, invitee={"email": "grace@example.com"},
            client_id=line["client_id"])
    assert unknown.value.status_code == 404
    assert unknown.value.body["errorCode"] == "inexistent_organization"
    with pytest.raises(ApiError) as too_long:
        invite(management, line, ttl_sec=2_592_001)
    assert too_long.value.status_code == 400 and too_long.value.body["errorCode"] == "invalid_body"
