"""The page bridge in WebKitGTK through Selenium (`webdriver.WebKitGTK` driving MiniBrowser).

WebKitGTK as Debian builds it has no WebAuthn at all: `navigator.credentials` and
`PublicKeyCredential` are undefined even on `http://localhost`. Its WebDriver (WebKitWebDriver)
has no preload script either (no CDP; Debian's WebKitWebDriver 2.50 refuses the `webSocketUrl`
capability, so no WebDriver BiDi). So the bridge is evaluated after each navigation, with
`execute_script`, in every window of the session (popups and new tabs included) and in every iframe
of each (Selenium switches into each window and frame, `about:blank` frames too). It then defines
`navigator.credentials`, `PublicKeyCredential`, `AuthenticatorAttestationResponse` and
`AuthenticatorAssertionResponse` itself, and the page's code, which reads them when a ceremony
starts, runs unchanged. A page that needs WebAuthn while it loads must wait for it (the test RP's
auto mode does), and a window or frame that appears later gets it at the next `inject()`. Requests
to `passkey serve` are `fetch` with CORS; WebKit sets the `Origin` header the server checks.

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
    in every window and frame; `inject` does so again (after a navigation the page made, a popup or
    tab it opened, or a frame it added). The driver stays in the window it was in."""

    def __init__(self, driver, script):
        self.driver, self.script = driver, script

    def get(self, url):
        self.driver.get(url)
        self.inject()

    def inject(self):
        """Evaluate the bridge in the top document of every window and, depth first, in each
        iframe. Evaluating it twice in one realm is a no-op, so calling this again is safe."""
        driver = self.driver
        try:
            current = driver.current_window_handle
        except WebDriverException:  # the window the driver was in has closed
            current = None
        # The driver's own window first, so a page that waits for the bridge there is served first.
        handles = sorted(driver.window_handles, key=lambda handle: handle != current)
        for handle in handles:
            try:
                driver.switch_to.window(handle)
                driver.switch_to.default_content()
                self._inject_here()
            except WebDriverException:
                continue  # the window closed meanwhile, or its page is not scriptable (a download)
        if current is not None and current in driver.window_handles:
            driver.switch_to.window(current)
        elif driver.window_handles:
            driver.switch_to.window(driver.window_handles[0])
        driver.switch_to.default_content()

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


def activate(driver):
    """Give the current document transient activation (HTML §6.4.3), as a person's click does:
    WebKitWebDriver's script evaluation gives none, so a cross-origin frame's create() would be
    refused (WebAuthn L3 §5.1.3). Clicks a small element added for the purpose, then removes it."""
    element = driver.execute_script(
        "const target = document.createElement('button');"
        "target.textContent = '.';"
        "target.style.cssText = 'position:fixed;left:0;top:0;width:8px;height:8px;padding:0;z-index:2147483647';"
        "document.documentElement.appendChild(target);"
        "return target;")
    try:
        element.click()
    finally:
        driver.execute_script("arguments[0].remove()", element)


def install(driver, authenticator, origins=None, relax=()):
    """The bridge of `authenticator` for this driver (see :class:`Bridge`): WebKitGTK has no preload
    script, so navigate with `bridge.get(url)` (or call `bridge.inject()` after a navigation, a new
    window or a new frame). `origins` and `relax` as for `Authenticator.bridge_script`."""
    return Bridge(driver, authenticator.bridge_script(origins, relax=relax))
