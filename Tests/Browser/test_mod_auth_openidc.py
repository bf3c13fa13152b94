"""Apache's `mod_auth_openidc` (Debian `libapache2-mod-auth-openidc`), an OpenID Connect relying party
this package did not write, protecting a page with the local tenant as its provider (issue 39).

Apache runs as the test's own process: its own ServerRoot and configuration in a temporary
directory, a free loopback port, the modules loaded from Debian's /usr/lib/apache2/modules. The
module reads the tenant's discovery document (`OIDCProviderMetadataURL`, over TLS from the interop
suite's test root, trusted with `OIDCCABundlePath`), authenticates as a regular web application with
`client_secret_basic` and sends PKCE S256. Chromium, with its own virtual authenticator, asks for the
protected page, is sent to the tenant's login page, signs up with a passkey, and lands on the page,
which shows the claims Apache passed it (SSI echoing `OIDC_CLAIM_*`); then Apache's logout, through
the tenant's `/oidc/logout` (RP-Initiated Logout 1.0), back to Apache's signed-out page.
"""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.parse
from pathlib import Path

import pytest

from conftest import passkey_binary, until_stopped
from test_web_auth import ChromiumUser
from web_auth_app import free_port, tls_tenant

CHROMIUM = pytest.mark.parametrize("engine", ["chromium"], indirect=True)
APACHE = shutil.which("apache2") or "/usr/sbin/apache2"
MODULES = Path("/usr/lib/apache2/modules")

# The protected page: what Apache knows of the person, from the claims mod_auth_openidc passed it.
PAGE = """<!doctype html><title>Protected</title>
<p>user <span id="user"><!--#echo var="REMOTE_USER" --></span>
<p>sub <span id="sub"><!--#echo var="OIDC_CLAIM_sub" --></span>
<p>email <span id="email"><!--#echo var="OIDC_CLAIM_email" --></span>
<p>amr <span id="amr"><!--#echo var="OIDC_CLAIM_amr" --></span>
<p>sid <span id="sid"><!--#echo var="OIDC_CLAIM_sid" --></span>
"""

# Where Apache's logout asks the tenant to send the browser back to (an Allowed Logout URL).
SIGNED_OUT = """<!doctype html><title>Signed out</title><h1>Signed out</h1>
"""

CONFIGURATION = """ServerRoot "{root}"
ServerName localhost
Listen 127.0.0.1:{port}
PidFile "{root}/httpd.pid"
ErrorLog "{root}/error.log"
LogLevel warn auth_openidc:info
DefaultRuntimeDir "{root}"
{user}
LoadModule mpm_event_module {modules}/mod_mpm_event.so
LoadModule authn_core_module {modules}/mod_authn_core.so
LoadModule authz_core_module {modules}/mod_authz_core.so
LoadModule authz_user_module {modules}/mod_authz_user.so
LoadModule mime_module {modules}/mod_mime.so
LoadModule include_module {modules}/mod_include.so
LoadModule auth_openidc_module {modules}/mod_auth_openidc.so
DocumentRoot "{root}/htdocs"
TypesConfig /etc/mime.types
AddType text/html .shtml

OIDCProviderMetadataURL {issuer}.well-known/openid-configuration
OIDCCABundlePath "{ca}"
OIDCClientID {client_id}
OIDCClientSecret {client_secret}
OIDCRedirectURI http://localhost:{port}/protected/redirect_uri
OIDCCryptoPassphrase {passphrase}
{pkce}
OIDCScope "openid profile email"
OIDCRemoteUserClaim email
OIDCPassClaimsAs environment

<Directory "{root}/htdocs">
  Require all granted
</Directory>
<Location /protected>
  AuthType openid-connect
  Require valid-user
  Options +Includes
  SetOutputFilter INCLUDES
</Location>
"""


class Apache:
    """`apache2 -DFOREGROUND -f CONF` of a configuration written to a new temporary directory (world
    readable: started as root, Apache serves as www-data)."""

    def __init__(self, port, **settings):
        self.port, self.origin = port, f"http://localhost:{port}"
        self.root = Path(tempfile.mkdtemp(prefix="passkey-apache."))
        self.root.chmod(0o755)
        (self.root / "htdocs" / "protected").mkdir(parents=True)
        for directory in (self.root / "htdocs", self.root / "htdocs" / "protected"):
            directory.chmod(0o755)
        for path, text in (("protected/index.shtml", PAGE), ("signed-out.html", SIGNED_OUT)):
            page = self.root / "htdocs" / path
            page.write_text(text)
            page.chmod(0o644)
        user = "User www-data\nGroup www-data" if os.geteuid() == 0 else ""
        ca = self.root / "ca.pem"  # where www-data reads it
        shutil.copyfile(settings.pop("ca"), ca)
        ca.chmod(0o644)
        configuration = self.root / "httpd.conf"
        configuration.write_text(CONFIGURATION.format(
            root=self.root, port=port, user=user, ca=ca, modules=MODULES, passphrase=secrets.token_hex(16), **settings))
        with open(self.root / "startup.log", "wb") as startup:
            self.process = subprocess.Popen([APACHE, "-DFOREGROUND", "-f", str(configuration)],
                                            stdout=startup, stderr=subprocess.STDOUT)
        try:
            self.wait_until_listening()
        except AssertionError:
            self.stop()
            raise

    def wait_until_listening(self, timeout=15):
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.process.poll() is None, f"apache2 exited: {self.log_text()}"
                assert time.monotonic() < deadline, f"apache2 did not listen: {self.log_text()}"
                time.sleep(0.1)

    def log_text(self):
        """What Apache wrote while starting, then its error log."""
        logs = (self.root / name for name in ("startup.log", "error.log"))
        return "".join(log.read_text(errors="replace") for log in logs if log.exists())

    def stop(self):
        """SIGTERM (Apache's stop), then the exit status; the directory is removed."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)
        return status


@pytest.fixture(scope="module")
def apache_ports():
    """The ports of the module's Apache servers: with PKCE, with a wrong secret, without PKCE."""
    return free_port(), free_port(), free_port()


@pytest.fixture(scope="module")
def tenant(tmp_path_factory, apache_ports):
    """A TLS tenant whose regular web application is Apache's (both servers' redirect URIs)."""
    origins = [f"http://localhost:{port}" for port in apache_ports]
    app = ",".join(
        ["name=apache,app_type=regular_web,token_endpoint_auth_method=client_secret_basic"]
        + [f"callbacks={origin}/protected/redirect_uri" for origin in origins]
        + [f"allowed_logout_urls={origin}/signed-out.html" for origin in origins])
    started = tls_tenant(passkey_binary(), tmp_path_factory.mktemp("tls"), "--app", app)
    yield from until_stopped(started, "passkey tenant serve")


def apache_server(tenant, port, secret=None, pkce=True):
    """Apache as the tenant's application (with `secret` instead of the application's, if given;
    PKCE S256 unless told otherwise, mod_auth_openidc's default being none); stopped, it must exit 0
    and have logged no secret."""
    (app,) = [a for a in tenant.start["applications"] if a["name"] == "apache"]
    started = Apache(port, issuer=tenant.issuer, ca=tenant.ca, client_id=app["client_id"],
                     client_secret=secret or app["client_secret"], pkce="OIDCPKCEMethod S256" if pkce else "")
    yield started
    log = started.log_text()
    assert started.stop() == 0, f"apache2 exits 0 on SIGTERM; it wrote: {log[-3000:]}"
    assert app["client_secret"] not in log and (secret is None or secret not in log)


@pytest.fixture(scope="module")
def apache(tenant, apache_ports):
    yield from apache_server(tenant, apache_ports[0])


@pytest.fixture
def impostor(tenant, apache_ports):
    yield from apache_server(tenant, apache_ports[1], secret="not-the-" + secrets.token_hex(24))


@pytest.fixture
def without_pkce(tenant, apache_ports):
    yield from apache_server(tenant, apache_ports[2], pkce=False)


@pytest.fixture
def person(engine):
    user = ChromiumUser(engine.browser, conditional=False, ignore_https_errors=True)
    yield user
    user.close()


def shown(person):
    return {name: person.page.text_content(f"#{name}") for name in ("user", "sub", "email", "amr", "sid")}


def signed_up(tenant, apache, person):
    """The person asks for Apache's protected page, is sent to the tenant's login page and signs up
    there with a passkey, and lands on the page: the authorization request Apache made, and the
    claims the page shows."""
    page = apache.origin + "/protected/index.shtml"
    answer = person.goto(page)
    assert person.page.url.startswith(tenant.origin + "/authorize?"), (person.page.url, apache.log_text()[-2000:])
    assert answer.status == 200 and person.page.is_visible("#signup")
    request = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(person.page.url).query))
    address = f"apache-{secrets.token_hex(4)}@example.com"
    person.press("#signup", address)
    person.arrive(page)
    claims = shown(person)
    assert (claims["user"], claims["email"]) == (address, address), (claims, apache.log_text()[-2000:])
    assert claims["sub"].startswith("auth0|") and claims["amr"] == "webauthn"
    assert len(claims["sid"]) == 22, "the login session's ID (OIDC Back-Channel Logout 1.0 §2.1)"
    return request, claims


@CHROMIUM
def test_apache_protects_a_page_with_a_passkey_login(tenant, apache, person):
    page = apache.origin + "/protected/index.shtml"
    request, claims = signed_up(tenant, apache, person)
    assert (request["code_challenge_method"], request["response_type"]) == ("S256", "code")

    # Apache's session cookie now lets the person in without the tenant.
    person.goto(page)
    assert person.page.url == page and shown(person) == claims

    # Apache's logout (OIDC RP-Initiated Logout 1.0): it ends its own session and sends the browser
    # to the discovery document's end_session_endpoint with id_token_hint and post_logout_redirect_uri;
    # the tenant ends its login session there and sends the browser back to Apache's page.
    signed_out = apache.origin + "/signed-out.html"
    answer = person.goto(apache.origin + "/protected/redirect_uri?logout=" + urllib.parse.quote(signed_out))
    assert person.page.url == signed_out and answer.status == 200, (person.page.url, apache.log_text()[-2000:])
    assert person.page.text_content("h1") == "Signed out"
    end_session = tenant.get("/.well-known/openid-configuration", verify=tenant.ca).json()["end_session_endpoint"]
    assert end_session == tenant.issuer + "oidc/logout"
    hops, request = [], answer.request.redirected_from
    while request is not None:
        hops.append(urllib.parse.urlsplit(request.url))
        request = request.redirected_from
    (logout,) = [hop for hop in hops if f"{hop.scheme}://{hop.netloc}{hop.path}" == end_session]
    sent = dict(urllib.parse.parse_qsl(logout.query))
    assert sent["post_logout_redirect_uri"] == signed_out and sent["id_token_hint"]
    assert "passkey_session" not in person.cookies()
    person.goto(page)
    assert person.page.url.startswith(tenant.origin + "/authorize?"), "Apache asks the tenant again"
    assert person.page.is_visible("#login"), "and the tenant asks for a passkey again"


@CHROMIUM
def test_apache_with_a_wrong_secret_shows_no_page(tenant, impostor, person):
    """The person logs in, but Apache's code exchange is refused `invalid_client` (RFC 6749 §5.2):
    Apache answers an error, never the protected page, and says why in its log."""
    page = impostor.origin + "/protected/index.shtml"
    person.goto(page)
    assert person.page.url.startswith(tenant.origin + "/authorize?")
    with person.page.expect_response(lambda r: r.url.startswith(impostor.origin + "/protected/redirect_uri?")) as got:
        person.press("#signup", f"impostor-{secrets.token_hex(4)}@example.com")
    # mod_auth_openidc 2.4 answers its error page (with 200) in place of the protected page.
    answer = got.value.text()
    assert "<title>Error</title>" in answer and "Error in handling response type" in answer, answer
    assert "invalid_client" in impostor.log_text()
    # The tenant's login session skips its page now, and the next exchange is refused the same way.
    again = person.goto(page)
    assert again.url.startswith(impostor.origin + "/protected/redirect_uri?code=")
    assert again.request.redirected_from.url.startswith(tenant.origin + "/authorize?")
    assert "<title>Error</title>" in again.text() and person.page.locator("#sub").count() == 0


@CHROMIUM
def test_apache_without_pkce_logs_in_as_on_auth0(tenant, without_pkce, person):
    """mod_auth_openidc's default sends no PKCE; a confidential client may do without (as on
    Auth0), its secret redeeming the code."""
    request, _ = signed_up(tenant, without_pkce, person)
    assert "code_challenge" not in request and "code_challenge_method" not in request
