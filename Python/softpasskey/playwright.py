"""The page bridge in Chromium through Playwright for Python, with the Debian browser.

Why it works: `add_init_script` (Chromium: CDP `Page.addScriptToEvaluateOnNewDocument`) runs the
script in the main world of every frame, iframes included, when its document is created and before
any of the page's scripts. The bridge then replaces `navigator.credentials.create/get` and
`PublicKeyCredential`'s static methods before the page can read them, and fetches
`passkey serve`'s bridge routes with CORS (both loopback, so no private-network block), the
browser itself setting the `Origin` header that the server checks the RP ID against.

A page whose Content-Security-Policy forbids that fetch (`connect-src 'self'`, as most sites with a
policy have) needs the relay (`relay=True`): the bridge's requests then go through an exposed
binding (`context.expose_binding`, Playwright's own channel, which no page policy governs) to this
process, which calls the server's `POST /bridge/relay` with a relay capability (control.Relay),
stating the origin of the frame that called (`source["frame"].url`) and, for a frame, of its page's
top frame; nothing the page sends is read as an origin. Under Playwright's synchronous API the
binding's calls are answered while the driving thread is in a Playwright call (`evaluate`,
`wait_for_url`, `wait_for_timeout`, …): a test that waits for a page's ceremony elsewhere (for a
redirect its own listener hears, say) waits in one of those.

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

import asyncio
import json
import threading
import urllib.parse

from softpasskey.control import ControlError

CHROMIUM = "/usr/bin/chromium"

RELAY_BINDING = "__softpasskeyRelay"
ROUTES = ("create", "get", "abort", "signal")

# Run before the bridge in every frame: the relay the bridge takes (Symbol.for("softpasskey.relay")),
# a call of the exposed binding with the request as JSON text.
RELAY_INSTALLER = """(() => {
  const key = Symbol.for("softpasskey.relay");
  const binding = globalThis.%s;
  if (typeof binding !== "function" || Object.prototype.hasOwnProperty.call(globalThis, key)) return;
  const stringify = JSON.stringify;
  Object.defineProperty(globalThis, key, {
    value: (request) => binding(stringify({route: String(request.route), body: request.body})),
    configurable: true,
  });
})();
""" % RELAY_BINDING


def launch_chromium(playwright, executable_path=CHROMIUM, headless=True, **options):
    """Chromium from the system (Debian `chromium`), through Playwright's `chromium.launch`."""
    return playwright.chromium.launch(executable_path=executable_path, headless=headless, **options)


def install(page_or_context, authenticator, origins=None, relax=(), relay=False):
    """Evaluate `authenticator`'s bridge in every frame of the page (or of every page of the
    context, popups and new tabs included) before the page's own scripts, from the next navigation
    on. `origins` restricts which page origins may use it; `relax` names browser rules it does not
    enforce in cross-origin frames (`Authenticator.bridge_script`). With `relay`, its requests go
    through Playwright to the server rather than by the page's own channel (for pages whose policy
    forbids it). Answers the script."""
    script = authenticator.bridge_script(origins, relax=relax)
    if relay:
        page_or_context.expose_binding(RELAY_BINDING, relay_binding(authenticator.relay(origins)))
        script = RELAY_INSTALLER + script
    page_or_context.add_init_script(script=script)
    return script


def refusal(status, error, message):
    return {"status": status, "value": {"error": error, "message": message}}


def frame_origin(frame):
    """The origin of the frame's document as the browser set it, else None: the origin of an http(s)
    URL (of a `blob:` URL's inner URL); an `about:blank` or `about:srcdoc` frame's parent's; none
    for other URLs, and none in an `<iframe sandbox>` without `allow-same-origin` (an opaque
    origin, which Playwright's frame URL does not show)."""
    url = frame.url
    if url.startswith("blob:"):
        url = url[len("blob:"):]
    if url in ("about:blank", "about:srcdoc") or url.startswith("about:blank#"):
        return frame_origin(frame.parent_frame) if frame.parent_frame is not None else None
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    if frame.parent_frame is not None:
        element = frame.frame_element()
        sandbox = element.get_attribute("sandbox")
        if sandbox is not None and "allow-same-origin" not in sandbox.split():
            return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def relay_binding(relay):
    """The binding's callback: a request `{route, body}` from a frame, answered `{status, value}` as
    the bridge route would answer that frame's origin. Its origin (and its top frame's) is what the
    browser says of the frame; a malformed request is refused without reaching the server. The
    server call runs in a thread of its own, so the page's other requests (an abort of a pending
    conditional get) and the driver's own commands go on meanwhile."""

    def answer(source, message):
        try:
            request = json.loads(message) if isinstance(message, str) else None
        except ValueError:
            request = None
        if not isinstance(request, dict) or request.get("route") not in ROUTES \
                or not isinstance(request.get("body"), dict):
            return refusal(400, "invalid argument", "a relay request is {route, body} of a bridge route")
        frame = source["frame"]
        origin = frame_origin(frame)
        if origin is None:
            return refusal(403, "SecurityError", "a bridge request comes from a page with an origin")
        top_origin = None
        if frame.parent_frame is not None:
            top_origin = frame_origin(frame.page.main_frame)
            if top_origin is None:
                return refusal(403, "NotAllowedError", "this frame's top-level origin is unknown")

        def call():
            try:
                status, value = relay.call(request["route"], origin, request["body"], top_origin=top_origin)
            except ControlError as error:
                return refusal(error.status, error.error, error.message)
            return {"status": status, "value": value}

        async def later():
            # A thread per call, not a bounded pool: a conditional get waits until a pick or abort.
            loop = asyncio.get_running_loop()
            answered = loop.create_future()

            def run():
                try:
                    outcome = call()
                except Exception as error:  # the server is unreachable: the page's promise still settles
                    outcome = refusal(503, "NotAllowedError", f"the relay cannot reach its server: {error}")
                loop.call_soon_threadsafe(lambda: answered.done() or answered.set_result(outcome))
            threading.Thread(target=run, daemon=True).start()
            return await answered
        return later()

    return answer
