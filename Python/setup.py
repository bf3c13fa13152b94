"""The version and, in a release, the bundled `passkey` binary (everything else is in pyproject.toml).

A release stages this folder with `softpasskey/bin/passkey` and `VERSION` beside it (Dist/package.py):
the wheel is then platform-specific (`py3-none-<platform>`, any Python 3, one machine architecture)
and installs a `passkey` console script. From the repository (`pip install -e Python`) the wheel is
pure Python, reads `../VERSION`, and installs no script, since no binary is bundled.
"""

from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel

HERE = Path(__file__).resolve().parent
BINARY = HERE / "softpasskey" / "bin" / "passkey"


def version():
    """The one version of SoftPasskey: the repository's `VERSION` file (a staged copy in a release)."""
    for candidate in (HERE / "VERSION", HERE.parent / "VERSION"):
        if candidate.is_file():
            return candidate.read_text().strip()
    raise SystemExit("setup.py: no VERSION file beside it or in its parent folder")


class BinaryDistribution(Distribution):
    """With the binary, the distribution is platform-specific (installed to platlib, as auditwheel
    requires of a wheel it repairs)."""

    def has_ext_modules(self):
        return BINARY.exists()


class BinaryWheel(bdist_wheel):
    """A wheel carrying the native binary needs no particular Python or Python ABI."""

    def get_tag(self):
        python, abi, platform = super().get_tag()
        return ("py3", "none", platform) if BINARY.exists() else (python, abi, platform)


setup(
    version=version(),
    distclass=BinaryDistribution,
    cmdclass={"bdist_wheel": BinaryWheel},
    package_data={"softpasskey": ["bin/passkey"]} if BINARY.exists() else {},
    entry_points={"console_scripts": ["passkey = softpasskey.binary:main"]} if BINARY.exists() else {},
)
