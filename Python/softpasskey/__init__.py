"""SoftPasskey from Python: `passkey serve`'s control API and its page bridge in three browser engines.

- :mod:`softpasskey.control`: start `passkey serve --json`, sessions, virtual authenticators, the
  bridge script of an authenticator, conditional mediation picks and the event stream.
- :mod:`softpasskey.playwright`: Chromium through Playwright (an init script in every frame; with
  `relay=True` the requests go through an exposed binding, for pages whose policy forbids the fetch).
- :mod:`softpasskey.bidi`: Firefox ESR through WebDriver BiDi (a preload script in every frame; with
  `relay=True` the requests go through a BiDi channel, :mod:`softpasskey.bidi_relay`).
- :mod:`softpasskey.selenium`: WebKitGTK's MiniBrowser through Selenium (the script after each load).

The bridge itself is JavaScript served by `passkey serve`; these modules only put it into pages.
"""
