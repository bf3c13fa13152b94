"""Each Locust user is a virtual user of an Auth0 tenant: it signs up with a passkey once, then
logs in over and over, through its worker's local `passkey serve` (which holds its passkeys).

Environment of each worker:
  PASSKEY_SERVE_URL, PASSKEY_SERVE_TOKEN   its `passkey serve` (start line of `passkey serve --json`)
  TENANT_URL, TENANT_CLIENT_ID             the tenant (`passkey tenant serve`, or Auth0: TENANT_DOMAIN)

Each control call is reported to Locust's statistics by name (signup, login); a non-2xx answer is
a Locust failure carrying the server's error code.
"""

import os
import time
import uuid

import requests
from locust import User, between, events, task


class PasskeyServe:
    """The worker's control server, with the bearer token."""

    def __init__(self, environment):
        self.environment = environment
        self.url = os.environ["PASSKEY_SERVE_URL"]
        self.http = requests.Session()
        self.http.headers["Authorization"] = "Bearer " + os.environ["PASSKEY_SERVE_TOKEN"]

    def call(self, name, method, path, body=None):
        """One request, reported to Locust as `name`; returns the value, or None after a failure."""
        start = time.perf_counter()
        exception, value, length = None, None, 0
        try:
            response = self.http.request(method, self.url + path, json=body, timeout=30)
            length = len(response.content)
            answer = response.json()
            if response.status_code >= 400:
                error = answer["value"]
                exception = RuntimeError(f"{error['error']} (HTTP {response.status_code}): {error['message']}")
            else:
                value = answer["value"]
        except Exception as failure:  # a connection failure is a Locust failure too
            exception = failure
        self.environment.events.request.fire(
            request_type="passkey", name=name, response_time=(time.perf_counter() - start) * 1000,
            response_length=length, exception=exception, context={},
        )
        return value


def tenant():
    description = {"clientId": os.environ["TENANT_CLIENT_ID"]}
    if "TENANT_URL" in os.environ:
        description["baseURL"] = os.environ["TENANT_URL"]
    else:
        description["domain"] = os.environ["TENANT_DOMAIN"]
    return description


class PasskeyUser(User):
    wait_time = between(0, 0.05)

    def on_start(self):
        self.serve = PasskeyServe(self.environment)
        session = self.serve.call("new session", "POST", "/session")["sessionId"]
        authenticator = self.serve.call(
            "add authenticator", "POST", f"/session/{session}/webauthn/authenticator",
            {"softpasskey:profile": "platform"},
        )
        user = self.serve.call(
            "add user", "POST", f"/session/{session}/users", {"tenant": tenant(), "authenticatorId": authenticator}
        )
        self.path = f"/session/{session}/users/{user}"
        self.signed_up = self.serve.call(
            "signup", "POST", self.path + "/signup", {"email": f"locust-{uuid.uuid4().hex}@example.com"}
        ) is not None

    @task
    def log_in(self):
        if self.signed_up:
            self.serve.call("login", "POST", self.path + "/login", {})


@events.quitting.add_listener
def fail_on_any_failure(environment, **_):
    """Exit non-zero when any call failed or none was made (the master sees every worker's)."""
    stats = environment.stats.total
    if stats.num_failures > 0 or stats.num_requests == 0:
        environment.process_exit_code = 1
