"""Two `passkey tenant serve` processes for the federated login of issue 40: B, the passkey provider,
and A, the tenant an app logs in at (Auth0's part), whose upstream OpenID Connect connections lead
to B (README, "The local tenant as a passkey provider").

Both are served over TLS from one test root with `--domain localhost:PORT`, so that each issuer
(`https://localhost:PORT/`) and its discovery document's endpoints are where it listens; A trusts the
root with `--cacert`. B has two regular web applications for A, authenticating with
`client_secret_post` and redirecting to A's `/login/callback` on any loopback port: `for-a`, whose
login is B's page (the page-driven variant), and `for-a-embedded`, with an invoke URL, to which B
sends the browser with the authenticate URL instead of a page. A has a connection to each (`idp`,
embedded; `idp-page`), one to a B that is not there (`down`), and a regular web application of its
own (`web`, `client_secret_basic`), whose callback is any loopback port's `/callback`.

The app's embedded SDK is played here by :class:`Agent`, written from the wire contract and not from
the Swift client: it follows redirects in one cookie jar, and with an authenticate URL asks for the
options, has `passkey get` sign them with a passkey of a store, and posts the assertion.

    federation = Federation(binary, directory)
    agent = Agent(federation)
    invoke = agent.follow(authorize_url_at_a, until=federation.invoked)      # A -> B -> the invoke URL
    callback = agent.follow(agent.authenticate(invoke, store), until=app_callback)  # B -> A -> the app
"""

import json
import os
import subprocess
import urllib.parse

import requests

from web_auth_app import HTTP_TIMEOUT, free_port, tls_tenant

# Where B sends the browser for the embedded client: the app's invoke URL (RFC 8252 §7.3 loopback;
# never connected to by the agent, which reads the authenticate URL off the redirect).
INVOKE_URL = "http://127.0.0.1/invoke"
# B's callbacks for A: A's /login/callback at any port of localhost (a loopback URL without a port).
A_CALLBACKS = "callbacks=https://localhost/login/callback,callbacks=http://localhost/login/callback"
# A's regular web application: the app's loopback callback, any port.
APP_CALLBACK = "http://127.0.0.1/callback"
# The origin of a native app's passkeys at B (its RP ID is localhost).
NATIVE_ORIGIN = "https://localhost"


class Federation:
    """B, then A with its connections; `provider` and `tenant` are the two TenantServers, `ca` the
    test root's PEM file, `app` A's regular web application (its start-line entry)."""

    def __init__(self, binary, directory):
        self.binary = binary
        self.provider = tls_tenant(
            binary, directory,
            "--app", f"name=for-a,app_type=regular_web,token_endpoint_auth_method=client_secret_post,{A_CALLBACKS}",
            "--app", f"name=for-a-embedded,app_type=regular_web,token_endpoint_auth_method=client_secret_post,"
                     f"{A_CALLBACKS},invoke_url={INVOKE_URL}")
        self.ca = self.provider.ca
        page, embedded = (application(self.provider, name) for name in ("for-a", "for-a-embedded"))
        environment = dict(os.environ, IDP_PAGE_SECRET=page["client_secret"],
                           IDP_SECRET=embedded["client_secret"])
        issuer, nowhere = self.provider.issuer, f"https://localhost:{free_port()}/"
        try:
            self.tenant = tls_tenant(
                binary, directory, "--cacert", str(self.ca),
                "--connection", f"idp=oidc,issuer={issuer},client_id={embedded['client_id']},client_secret_env=IDP_SECRET",
                "--connection", f"idp-page=oidc,issuer={issuer},client_id={page['client_id']},"
                                "client_secret_env=IDP_PAGE_SECRET",
                "--connection", f"down=oidc,issuer={nowhere},client_id=nobody,client_secret_env=IDP_SECRET",
                "--app", f"name=web,app_type=regular_web,token_endpoint_auth_method=client_secret_basic,"
                         f"callbacks={APP_CALLBACK}",
                files=self.provider.files, env=environment)
        except Exception:
            self.provider.stop()
            raise
        self.app = application(self.tenant, "web")
        self.secrets = [page["client_secret"], embedded["client_secret"], self.app["client_secret"]]

    def invoked(self, url):
        """Whether `url` is B's redirect to the invoke URL."""
        return url.startswith(INVOKE_URL + "?")

    def sign_up_at_provider(self, store, email):
        """`passkey signup` of `email` at B (natively, a passkey of `store`); answers B's `sub`."""
        signed_up = subprocess.run(
            [self.binary, "signup", "--email", email, "--json", "--base-url", self.provider.origin,
             "--client-id", self.provider.client_id, "--cacert", str(self.ca), "--store", str(store),
             "--sessions", str(store) + "-sessions"],
            capture_output=True, text=True, timeout=60)
        assert signed_up.returncode == 0, signed_up.stderr
        return json.loads(signed_up.stdout)["session"]["user"]["sub"]

    def users_at_tenant(self):
        """A's users, through its Management API (the machine-to-machine client's token)."""
        start = self.tenant.start
        token = requests.post(self.tenant.origin + "/oauth/token", timeout=HTTP_TIMEOUT, verify=self.ca, json={
            "grant_type": "client_credentials", "client_id": start["m2m_client_id"],
            "client_secret": start["m2m_client_secret"], "audience": start["management_audience"]}).json()
        answer = requests.get(self.tenant.origin + "/api/v2/users", timeout=HTTP_TIMEOUT, verify=self.ca,
                              headers={"Authorization": f"Bearer {token['access_token']}"})
        assert answer.status_code == 200, answer.text
        return answer.json()

    def log_text(self):
        return f"B: {self.provider.log_text()}\nA: {self.tenant.log_text()}"

    def stop(self):
        """Stops A, then B; 0 when both exited 0 and neither logged a client secret."""
        statuses = [self.tenant.stop(), self.provider.stop()]
        logs = self.log_text()
        leaked = [secret for secret in self.secrets if secret in logs]
        return 0 if statuses == [0, 0] and not leaked else 1


def application(tenant, name):
    (app,) = [a for a in tenant.start["applications"] if a["name"] == name]
    return app


class Agent:
    """The app's user agent and embedded SDK without a browser: one cookie jar across A and B."""

    def __init__(self, federation):
        self.federation = federation
        self.http, self.ca = requests.Session(), str(federation.ca)

    def follow(self, url, until, hops=8):
        """GETs `url` and follows each redirect in the cookie jar until one goes where `until(url)`
        holds; answers that URL, unfetched."""
        for _ in range(hops):
            answer = self.http.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT, verify=self.ca)
            assert answer.status_code in (302, 303), (url, answer.status_code, answer.text[:1000])
            url = urllib.parse.urljoin(url, answer.headers["Location"])
            if until(url):
                return url
        raise AssertionError(f"no redirect reached the end within {hops} hops; the last: {url}")

    def authenticate(self, invoked, store, error=None):
        """The embedded SDK's part at the invoke URL `invoked`: the authenticate URL's options, a
        passkey of `store` signing them (or, with `error`, the user's refusal), the assertion posted;
        answers the `redirectUrl` B gives."""
        authenticate = single(invoked, "url")
        if error is None:
            options = self.http.get(
                authenticate, headers={"Accept": "application/json"}, timeout=HTTP_TIMEOUT, verify=self.ca)
            assert options.status_code == 200, options.text
            body = {"credential": self.sign(options.json()["publicKey"], store)}
        else:
            body = {"error": error}
        answer = self.http.post(authenticate, json=body, timeout=HTTP_TIMEOUT, verify=self.ca)
        assert answer.status_code == 200, answer.text
        return answer.json()["redirectUrl"]

    def sign(self, options, store):
        signed = subprocess.run(
            [self.federation.binary, "get", "--origin", NATIVE_ORIGIN, "--store", str(store)],
            input=json.dumps(options), capture_output=True, text=True, timeout=60)
        assert signed.returncode == 0, signed.stderr
        return json.loads(signed.stdout)


def single(url, name):
    """The one value of query parameter `name` of `url`."""
    (value,) = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)[name]
    return value
