"""The example's client of `passkey serve`: the repository's `softpasskey` package
(Python/softpasskey/control.py, `requests` only, installed into .venv by `make setup`), under the
names this example has always used."""

from softpasskey.control import Authenticator as VirtualAuthenticator
from softpasskey.control import ControlError as PasskeyServeError
from softpasskey.control import PasskeyServer as PasskeyServe

__all__ = ["PasskeyServe", "PasskeyServeError", "VirtualAuthenticator"]
