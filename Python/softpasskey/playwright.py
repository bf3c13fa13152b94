"""The page bridge in Chromium through Playwright for Python, with the Debian browser.

Why it works: `add_init_script` (Chromium: CDP `Page.addScriptToEvaluateOnNewDocument`) runs the
script in the main world of every frame, iframes included, when its document is created and before
any of the page's scripts. The bridge then replaces `navigator.credentials.create/get` and
`PublicKeyCredential`'s static methods before the page can read them, and fetches
`passkey serve`'s bridge routes with CORS (both loopback, so no private-network block), the
browser itself setting the `Origin` header that the server checks the RP ID against.

    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = launch_chromium(p)
        context = browser.new_context()
        install(context, authenticator)            # every page of the context, every frame
        page = context.new_page()
        page.goto("http://localhost:5000/")

Installed on the context, the bridge is in every page of it and every frame of those pages: popups
(`window.open`, to any origin), new tabs (`target=_blank`), `about:blank` frames (at once, before the
page's script that made them can call into them) and frames added later. Installed on one page, it
is in that page's frames only (Playwright's popups are new pages).

Playwright never downloads a browser here: `launch_chromium` starts `/usr/bin/chromium`.
"""

CHROMIUM = "/usr/bin/chromium"


def launch_chromium(playwright, executable_path=CHROMIUM, headless=True, **options):
    """Chromium from the system (Debian `chromium`), through Playwright's `chromium.launch`."""
    return playwright.chromium.launch(executable_path=executable_path, headless=headless, **options)


def install(page_or_context, authenticator, origins=None, relax=()):
    """Evaluate `authenticator`'s bridge in every frame of the page (or of every page of the
    context, popups and new tabs included) before the page's own scripts, from the next navigation
    on. `origins` restricts which page origins may use it; `relax` names browser rules it does not
    enforce in cross-origin frames (`Authenticator.bridge_script`). Answers the script."""
    script = authenticator.bridge_script(origins, relax=relax)
    page_or_context.add_init_script(script=script)
    return script
