#!/usr/bin/env bash
# The release artifacts (dist/: the tarball and the wheel) on a bare Debian root: debootstrap's minbase
# with only python3, python3-venv and ca-certificates added, so no Swift, no libcbor, no libcurl and no
# dev package. The root is made once and kept in the cache folder (made anew when absent); each run
# works in a copy, in a mount namespace of its own (proc and dev mounted there, gone when it ends).
#
#   bash Tests/Dist/bare-root.sh [DIST]        (as root: debootstrap, unshare and chroot need it)
#   bash Tests/Dist/bare-root.sh --prepare     (only the cached root and wheelhouse: `make test` runs this
#                                               in the background while it builds)
#
# Inside, with the artifacts only: the tarball unpacked under /opt and Tests/Dist/test_tarball.py; the
# wheel installed into a fresh venv from a local wheelhouse (pytest, Flask, py_webauthn: no index is
# reached from the root) with Tests/Dist/test_wheel.py and the example suite Examples/python.
set -euo pipefail
cd "$(dirname "$0")/../.."
prepare_only=false
[ "${1:-}" = --prepare ] && prepare_only=true && shift
dist=$(realpath "${1:-dist}")
cache=${SOFTPASSKEY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/softpasskey}
suite=bookworm
root_cache=$cache/bare-root-$suite
requirements=Examples/python/requirements.txt
wheelhouse=$cache/wheelhouse-$(sha256sum "$requirements" | cut -c1-16)
python=${PYTHON:-.venv/bin/python}
started=$SECONDS

# One preparation at a time (a run waits for the background one); each result appears whole or not at all.
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ ! -x "$root_cache/usr/bin/python3" ]; then
  echo "bare-root: making the $suite minbase root in $root_cache (once; cached afterwards)"
  rm -rf "$root_cache.partial"
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates "$suite" "$root_cache.partial" \
    http://deb.debian.org/debian >"$cache/debootstrap.log" 2>&1 || { tail -20 "$cache/debootstrap.log"; exit 1; }
  rm -rf "$root_cache" && mv "$root_cache.partial" "$root_cache"
fi
# The test tools for the root's Python, fetched here (the root reaches no index), kept per requirement set.
if [ ! -d "$wheelhouse" ]; then
  rm -rf "$wheelhouse.partial"
  "$python" -m pip download --quiet --disable-pip-version-check --dest "$wheelhouse.partial" -r "$requirements"
  mv "$wheelhouse.partial" "$wheelhouse"
fi
flock --unlock 9
$prepare_only && { echo "bare-root: $root_cache and $wheelhouse ready in $((SECONDS - started)) s"; exit 0; }

# auditwheel's own reading of the wheel: a manylinux tag, and nothing left outside the policy.
shown=$("$python" -m auditwheel show "$dist"/softpasskey-*.whl | tr -s ' \n' ' ')
tag=$(grep -o 'is consistent with the following platform tag: "manylinux_[0-9a-z_]*"' <<<"$shown" | cut -d'"' -f2) ||
  { echo "bare-root: auditwheel names no manylinux tag for the wheel: $shown"; exit 1; }
echo "bare-root: auditwheel show: $tag"

work=$(mktemp -d "${TMPDIR:-/tmp}/passkey-bare-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
cp -a "$root_cache" "$root"
mkdir -p "$root/srv/dist" "$root/srv/tests" "$root/srv/examples"
cp "$dist"/softpasskey-*.whl "$dist"/softpasskey-*-linux-x86_64.tar.gz "$root/srv/dist/"
cp -r "$wheelhouse" "$root/srv/wheelhouse"
cp Tests/Dist/test_tarball.py Tests/Dist/test_wheel.py Tests/Dist/inside-root.sh "$root/srv/tests/"
cp Examples/python/*.py "$requirements" "$root/srv/examples/"
version=$(cat VERSION)

echo "bare-root: the artifacts of $(basename "$dist") in a copy of $root_cache"
unshare --mount --pid --fork --mount-proc="$root/proc" bash -c '
  mount --rbind /dev "$1/dev" && mount -t tmpfs tmpfs "$1/tmp" &&
  exec chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 SOFTPASSKEY_VERSION="$2" \
    bash /srv/tests/inside-root.sh' bare-root "$root" "$version"
echo "bare-root: passed in $((SECONDS - started)) s"
