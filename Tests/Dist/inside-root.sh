#!/usr/bin/env bash
# Inside the bare root (Tests/Dist/bare-root.sh copies it to /srv/tests): the tarball unpacked under /opt,
# the wheel installed into a fresh venv with the test tools from the local wheelhouse, then the tarball's
# and the wheel's tests and the example suite, which finds the wheel's binary by itself.
set -euo pipefail
cd /srv
if command -v swift >/dev/null || ldconfig -p | grep -E 'libcbor|libcurl|libpsl|libswiftCore|libFoundation'; then
  echo "bare-root: the root is not bare (Swift or a library SoftPasskey links is installed)"; exit 1
fi
tar -xzf dist/softpasskey-*-linux-x86_64.tar.gz -C /opt
export SOFTPASSKEY_HOME=$(echo /opt/softpasskey-*)
python3 -m venv /srv/venv
/srv/venv/bin/pip install --quiet --disable-pip-version-check --no-index --find-links wheelhouse \
  dist/softpasskey-*.whl -r examples/requirements.txt
cd /srv/tests && /srv/venv/bin/python -m pytest -q -p no:cacheprovider test_tarball.py test_wheel.py
cd /srv/examples && /srv/venv/bin/python -m pytest -q -p no:cacheprovider
