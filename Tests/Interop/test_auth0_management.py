"""Auth0's own Management API client, `auth0-python`'s `ManagementClient` unmodified, against `passkey tenant serve`
over TLS from a test CA (issue 39): users created, then listed and searched with `q` and `search_engine="v3"`, paged
with totals, and a query the tenant cannot run refused as Auth0 refuses it."""

import pytest
from auth0.management.core.api_error import ApiError

from conftest import management_client

CONNECTION = "Username-Password-Authentication"


@pytest.fixture
def management(trusted_tls_tenant):
    """A ManagementClient of the TLS tenant's machine-to-machine client, trusting the test CA."""
    return management_client(trusted_tls_tenant)


def emails(users) -> list:
    return sorted(user.email for user in users)


def test_users_are_listed_and_searched(management):
    created = [
        management.users.create(connection=CONNECTION, email="ada@example.com", name="Ada Lovelace",
                                email_verified=True),
        management.users.create(connection=CONNECTION, email="adam@example.com", name="Adam Smith"),
        management.users.create(connection=CONNECTION, email="bob@example.com", name="Bob"),
    ]

    by_email = management.users.list(q='email:"ada@example.com"', search_engine="v3")
    assert [user.user_id for user in by_email] == [created[0].user_id]
    assert emails(management.users.list(q="email:ada*", search_engine="v3")) == ["ada@example.com",
                                                                                  "adam@example.com"]
    assert emails(management.users.list(q="email_verified:true", search_engine="v3")) == ["ada@example.com"]
    assert emails(management.users.list(q='name:"Adam Smith" OR name:Bob', search_engine="v3")) == [
        "adam@example.com", "bob@example.com"]
    assert emails(management.users.list(q=f'user_id:"{created[2].user_id}"', search_engine="v3")) == [
        "bob@example.com"]
    assert list(management.users.list(q="email:nobody*", search_engine="v3")) == []


def test_pages_carry_totals(management):
    for name in ["ada", "bob", "carol", "dave", "erin"]:
        management.users.create(connection=CONNECTION, email=f"{name}@example.com")

    first = management.users.list(page=0, per_page=2, include_totals=True, sort="email:1", search_engine="v3")
    assert (first.response.start, first.response.limit, first.response.length, first.response.total) == (0, 2, 2, 5)
    assert [user.email for user in first.items] == ["ada@example.com", "bob@example.com"]
    # The pager follows page after page until an empty one, as against Auth0.
    assert [user.email for user in first] == [f"{name}@example.com" for name in ["ada", "bob", "carol", "dave",
                                                                                  "erin"]]
    descending = management.users.list(page=0, per_page=50, sort="email:-1")
    assert [user.email for user in descending.items][:2] == ["erin@example.com", "dave@example.com"]


@pytest.mark.parametrize("q", ['email:"unterminated', "email:*ada", "unknown_field:x", "(email:ada*"])
def test_a_query_the_tenant_cannot_run_is_a_400(management, q):
    with pytest.raises(ApiError) as refused:
        list(management.users.list(q=q, search_engine="v3"))
    assert refused.value.status_code == 400
    assert refused.value.body["errorCode"] == "invalid_query_string"
    assert refused.value.body["statusCode"] == 400
