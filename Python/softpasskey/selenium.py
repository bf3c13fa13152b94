"""The page bridge in WebKitGTK through Selenium (`webdriver.WebKitGTK` driving MiniBrowser).

WebKitGTK as Debian builds it has no WebAuthn at all: `navigator.credentials` and
`PublicKeyCredential` are undefined even on `http://localhost`. Its WebDriver (WebKitWebDriver)
has no preload script either (no BiDi, no CDP). So the bridge is evaluated after each navigation,
with `execute_script`, in the top document and in every iframe (Selenium switches into each
frame). It then defines `navigator.credentials`, `PublicKeyCredential`,
`AuthenticatorAttestationResponse` and `AuthenticatorAssertionResponse` itself, and the page's
code, which reads them when a ceremony starts, runs unchanged. A page that needs WebAuthn while it
loads must wait for it (the test RP's auto mode does). Requests to `passkey serve` are `fetch` with
CORS; WebKit sets the `Origin` header the server checks.

MiniBrowser has no headless flag: run under `xvfb-run -a`.

    driver = webkit_driver()
    bridge = install(driver, authenticator)
    bridge.get("http://localhost:5000/")         # navigates, then evaluates the bridge everywhere
"""

import glob
import shutil
import warnings

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service


def minibrowser():
    """`/usr/lib/<arch>/webkit2gtk-4.1/MiniBrowser` (Debian `webkit2gtk-driver` pulls it in)."""
    found = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))
    if not found:
        raise FileNotFoundError("no MiniBrowser: apt-get install webkit2gtk-driver")
    return found[0]


def webkit_driver(binary=None, arguments=("--automation",), driver_path=None):
    """A Selenium session in MiniBrowser (`webkitgtk:browserOptions` binary and args), through
    the system's WebKitWebDriver (no Selenium Manager download)."""
    options = Options()
    options.binary_location = binary or minibrowser()
    for argument in arguments:
        options.add_argument(argument)
    service = Service(executable_path=driver_path or shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver")
    with warnings.catch_warnings():
        # Selenium's own WebKitGTK driver still builds its connection the deprecated way.
        warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
        return webdriver.WebKitGTK(options=options, service=service)


class Bridge:
    """The bridge of one authenticator in a Selenium driver: `get` navigates and then evaluates it
    in every frame; `inject` does so in the current document (after a navigation the page made)."""

    def __init__(self, driver, script):
        self.driver, self.script = driver, script

    def get(self, url):
        self.driver.get(url)
        self.inject()

    def inject(self):
        """Evaluate the bridge in the top document and, depth first, in each iframe. Evaluating it
        twice in one realm is a no-op, so calling this again is safe."""
        self.driver.switch_to.default_content()
        self._inject_here()
        self.driver.switch_to.default_content()

    def _inject_here(self):
        self.driver.execute_script(self.script)
        for index in range(len(self.driver.find_elements(By.TAG_NAME, "iframe"))):
            frame = self.driver.find_elements(By.TAG_NAME, "iframe")[index]
            try:
                self.driver.switch_to.frame(frame)
            except WebDriverException:
                continue
            self._inject_here()
            self.driver.switch_to.parent_frame()


def install(driver, authenticator, origins=None):
    """The bridge of `authenticator` for this driver (see :class:`Bridge`): WebKitGTK has no preload
    script, so navigate with `bridge.get(url)` (or call `bridge.inject()` after a navigation)."""
    return Bridge(driver, authenticator.bridge_script(origins))
