"""The bridge routes against bad input, as a hostile page or another tab could send it (no browser
needed: these are the HTTP requests a page's fetch makes). Every refusal is a 4xx in WebDriver's
error shape and changes nothing: the authenticator's credentials and counters stay as they were."""

import json
import re
import threading
import time

import pytest
import requests

from softpasskey.control import ControlError

RP_ORIGIN = "http://localhost:5000"


def creation_options(username="mallory", challenge="Y2hhbGxlbmdlLWNoYWxsZW5nZS0zMi1ieXRlcy1sb25n"):
    return {
        "rp": {"id": "localhost", "name": "RP"},
        "user": {"id": "dXNlci1pZA", "name": username, "displayName": username},
        "challenge": challenge, "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
        "authenticatorSelection": {"residentKey": "required", "userVerification": "required"},
    }


def request_options():
    return {"challenge": "Y2hhbGxlbmdlLWNoYWxsZW5nZS0zMi1ieXRlcy1sb25n", "rpId": "localhost",
            "userVerification": "required"}


def config_of(script):
    """The CONFIG_JSON the script ends with: `(function softpasskeyBridge(config) {…})(CONFIG);`."""
    capability = re.search(r'"capability"\s*:\s*"([A-Za-z0-9_-]+)"', script).group(1)
    endpoint = re.search(r'"endpoint"\s*:\s*"([^"]+)"', script).group(1)
    return endpoint, capability


class Page:
    """What a page's fetch sends to the bridge: its capability, its Origin, a JSON body."""

    def __init__(self, endpoint, capability, origin=RP_ORIGIN):
        self.endpoint, self.capability, self.origin = endpoint, capability, origin

    def post(self, route, body, capability=None, origin=None, raw=None):
        headers = {"Authorization": f"Bearer {capability or self.capability}", "Content-Type": "application/json"}
        if (origin or self.origin) != "omit":
            headers["Origin"] = origin or self.origin
        data = raw if raw is not None else json.dumps(body)
        return requests.post(f"{self.endpoint}/{route}", data=data, headers=headers, timeout=30)


@pytest.fixture
def page(authenticator):
    return Page(*config_of(authenticator.bridge_script()))


def state(authenticator):
    return sorted((c["credentialId"], c["signCount"]) for c in authenticator.credentials())


def assert_refused(answer, status=None):
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
    if status is not None:
        assert answer.status_code == status, answer.text
    value = answer.json()["value"]
    assert isinstance(value["error"], str) and isinstance(value["message"], str)
    return value


def test_the_script_is_javascript_bound_to_one_authenticator(server, authenticator, page):
    answer = server.request("GET", authenticator.path + "/bridge.js")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("text/javascript")
    assert answer.headers["Cache-Control"] == "no-store"
    assert len(page.capability) == 43
    assert page.capability != server.token
    assert page.capability not in authenticator.session.add_authenticator(
        protocol="ctap2", transport="internal").bridge_script(), "a capability per authenticator"


def test_a_well_formed_request_succeeds(page, authenticator):
    """The control for the refusals below: the same request, right, is answered."""
    answer = page.post("create", {"options": creation_options(), "requestId": "r1", "mediation": None,
                                  "topOrigin": None})
    assert answer.status_code == 200, answer.text
    assert answer.json()["value"]["type"] == "public-key"
    assert len(state(authenticator)) == 1


def test_the_cors_preflight_allows_the_pages_origin_and_private_network(page):
    answer = requests.options(f"{page.endpoint}/create", headers={
        "Origin": RP_ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
        "Access-Control-Request-Private-Network": "true"}, timeout=30)
    assert answer.status_code == 204
    assert answer.headers["Access-Control-Allow-Origin"] == RP_ORIGIN
    assert answer.headers["Access-Control-Allow-Private-Network"] == "true"
    assert "authorization" in answer.headers["Access-Control-Allow-Headers"].lower()


def test_a_wrong_capability_is_unauthorized(page, authenticator):
    before = state(authenticator)
    for capability in ("A" * 43, "not-a-capability", page.capability[:-1] + ("A" if page.capability[-1] != "A" else "B")):
        value = assert_refused(page.post("create", {"options": creation_options(), "requestId": "r"},
                                         capability=capability), 401)
        assert value["error"] == "unauthorized"
        assert page.capability not in value["message"]
    assert state(authenticator) == before == []


def test_the_control_token_is_not_a_capability_nor_the_capability_a_token(server, page, authenticator):
    assert_refused(page.post("create", {"options": creation_options(), "requestId": "r"}, capability=server.token), 401)
    answer = requests.get(server.url + authenticator.path + "/credentials",
                          headers={"Authorization": f"Bearer {page.capability}"}, timeout=30)
    assert answer.status_code == 401, "the capability can run ceremonies, never list keys"
    assert state(authenticator) == []


def test_another_sessions_authenticator_is_out_of_reach(server, session, page, authenticator):
    other_session = server.new_session()
    try:
        other = other_session.add_authenticator(protocol="ctap2", transport="internal", hasResidentKey=True,
                                                hasUserVerification=True, isUserVerified=True)
        theirs = other.create(RP_ORIGIN, creation_options("victim"))
        before = state(other)
        with pytest.raises(ControlError) as not_here:
            server.call("GET", f"{other_session.path}/webauthn/authenticator/{authenticator.id}/bridge.js")
        assert (not_here.value.status, not_here.value.error) == (400, "invalid argument"), "WebDriver's answer"
        # Our capability asks for their credential: our authenticator has none such.
        options = dict(request_options(), allowCredentials=[{"type": "public-key", "id": theirs["id"]}])
        answer = page.post("get", {"options": options, "requestId": "r2", "mediation": None, "topOrigin": None})
        assert_refused(answer)["error"] == "NotAllowedError"
        answer = page.post("signal", {"kind": "unknownCredential",
                                      "options": {"rpId": "localhost", "credentialId": theirs["id"]}, "topOrigin": None})
        assert answer.status_code < 500
        assert state(other) == before
    finally:
        other_session.delete()


def test_an_aborted_conditional_get_is_answered_and_forgotten(page, authenticator):
    assert page.post("create", {"options": creation_options("abby"), "requestId": "r0"}).status_code == 200
    answers = []
    body = {"options": request_options(), "requestId": "r-aborted", "mediation": "conditional", "topOrigin": None}
    waiting = threading.Thread(target=lambda: answers.append(page.post("get", body)))
    waiting.start()
    # /abort of a request not yet pending is a no-op, so it is repeated until the get has answered.
    deadline = time.monotonic() + 20
    while waiting.is_alive() and time.monotonic() < deadline:
        assert page.post("abort", {"requestId": "r-aborted"}).json() == {"value": None}
        waiting.join(0.05)
    assert answers, "the pending conditional get answered once aborted"
    assert assert_refused(answers[0])["error"] == "AbortError"
    with pytest.raises(ControlError) as nothing:
        authenticator.conditional(timeout=200)
    assert (nothing.value.status, nothing.value.error) == (404, "no such alert"), "the server forgot it"


def test_a_foreign_origin_is_refused_when_the_script_restricts_origins(authenticator):
    restricted = Page(*config_of(authenticator.bridge_script(origins=[RP_ORIGIN])))
    body = {"options": creation_options(), "requestId": "r3", "mediation": None, "topOrigin": None}
    for origin in ("http://evil.localhost:5000", "http://localhost:5001", "null", "omit"):
        assert_refused(restricted.post("create", body, origin=origin))
    assert state(authenticator) == []
    assert restricted.post("create", body).status_code == 200, "its own origin is answered"


def test_without_an_origin_header_nothing_runs(page, authenticator):
    body = {"options": creation_options(), "requestId": "r4", "mediation": None, "topOrigin": None}
    assert_refused(page.post("create", body, origin="omit"))
    assert_refused(page.post("create", body, origin="null"))
    assert state(authenticator) == []


@pytest.mark.parametrize("route, raw", [
    ("create", "not json"),
    ("create", "[]"),
    ("create", '{"requestId": "r"}'),
    ("create", '{"options": {"challenge": 7}, "requestId": "r"}'),
    ("create", '{"options": ' + json.dumps(dict(creation_options(), challenge="***")) + ', "requestId": "r"}'),
    ("create", '{"options": ' + json.dumps(creation_options()) + ', "requestId": "r", "mediation": "sometimes"}'),
    ("get", '{"options": "nope", "requestId": "r"}'),
    ("abort", '{"requestId": 5}'),
    ("signal", '{"kind": "everything", "options": {}}'),
    ("signal", '{"kind": "unknownCredential", "options": {"rpId": "localhost", "credentialId": "!!"}}'),
    ("create", '{"options": ' + json.dumps(creation_options()) + ', "requestId": "r", "pad": "' + "x" * 70000 + '"}'),
], ids=["not-json", "array", "no-options", "bad-challenge-type", "bad-base64url", "bad-mediation", "options-string",
        "request-id-number", "unknown-signal", "bad-credential-id", "over-64-KiB"])
def test_malformed_bodies_are_4xx_and_change_nothing(page, authenticator, route, raw):
    assert page.post("create", {"options": creation_options("kept"), "requestId": "r0"}).status_code == 200
    before = state(authenticator)
    assert_refused(page.post(route, None, raw=raw))
    assert state(authenticator) == before


def test_an_unknown_route_or_method_is_4xx(page):
    answer = requests.post(f"{page.endpoint}/export", headers={
        "Authorization": f"Bearer {page.capability}", "Origin": RP_ORIGIN}, data="{}", timeout=30)
    assert 400 <= answer.status_code < 500
