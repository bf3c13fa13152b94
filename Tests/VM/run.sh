#!/usr/bin/env bash
# The VM stage (issue 45): `passkey device --uhid` on a real kernel, driven by real FIDO clients.
#
#   bash Tests/VM/run.sh PASSKEY_BIN [WORK_DIR]
#
# This machine's own kernel has no UHID, so the stage boots Debian's kernel under qemu (software
# emulation: KVM does not work here, ../shared/notes/uhid-in-a-vm.md) with a small initramfs that
# mounts this machine's `/` read-only over 9p (under a tmpfs overlay: the guest writes into its own
# memory) and a writable share (WORK_DIR/share) for the stores, the steps' logs and their results. Tests/VM/guest.sh runs the steps inside and powers the VM off;
# this script then prints one line per step and fails when a step failed or did not run.
#
# Where qemu, a kernel with the uhid module or a static busybox cannot be had, it prints one
# "skipped" line and succeeds (`make setup` installs qemu-system-x86, linux-image-amd64 and
# busybox-static).
#
# Knobs (environment): VM_SECONDS, the bound on the whole VM run (default 900; qemu is killed
# after it); VM_CPUS (2) and VM_MEMORY (MiB, 2048); VM_KERNEL, a vmlinuz whose modules are in
# /lib/modules; VM_STEPS, a regular expression naming the steps to run (default: all);
# VM_PYTHON, a Python with py_webauthn, python-fido2 and pytest (default: the repository's .venv).
set -euo pipefail
# The whole script is one compound command, read before it runs: a checkout or merge that changes this
# file while the stage runs cannot change what runs.
{

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
passkey=${1:?usage: run.sh PASSKEY_BIN [WORK_DIR]}
work=${2:-$repo/.build/vm-test}
seconds=${VM_SECONDS:-900}
started=$(date +%s)

skip() {
    echo "vm-test: skipped: $* (make setup installs qemu-system-x86 linux-image-amd64 busybox-static)"
    exit 0
}

# --- What the stage needs; a missing part is a skip, not a failure ------------------------------
qemu=$(command -v qemu-system-x86_64) || skip "qemu-system-x86_64 is not installed"
busybox=/bin/busybox
[ -x "$busybox" ] || skip "$busybox is not installed"
# The initramfs has no libraries: a dynamically linked busybox (Debian's `busybox`) cannot run there.
if ldd "$busybox" >/dev/null 2>&1; then
    skip "$busybox is linked dynamically (the busybox package, not busybox-static)"
fi

# The kernel: VM_KERNEL (a mistake there is a failure), else the newest /boot/vmlinuz-* whose modules
# include uhid.
kernel=${VM_KERNEL:-}
if [ -n "$kernel" ] && [ ! -r "$kernel" ]; then
    echo "vm-test: FAIL: VM_KERNEL=$kernel is not a readable file"
    exit 1
elif [ -z "$kernel" ]; then
    for candidate in $(ls -v /boot/vmlinuz-* 2>/dev/null | tac); do
        if modinfo -k "${candidate#/boot/vmlinuz-}" -n uhid >/dev/null 2>&1; then kernel=$candidate; break; fi
    done
fi
[ -n "$kernel" ] && [ -r "$kernel" ] || skip "no kernel in /boot with the uhid module in /lib/modules"
version=${kernel##*/vmlinuz-}

[ -x "$passkey" ] || { echo "vm-test: FAIL: the passkey binary $passkey does not exist (build first)"; exit 1; }
passkey=$(cd "$(dirname "$passkey")" && pwd)/$(basename "$passkey")
python=${VM_PYTHON:-$repo/.venv/bin/python}

# --- A fresh work directory: the initramfs, the share, the console log ---------------------------
# Only what this script makes goes (WORK_DIR may be any directory).
rm -rf "$work/initramfs" "$work/initramfs.gz" "$work/share" "$work/console.log" "$work/qemu.log" "$work/summary.txt"
mkdir -p "$work/initramfs/bin" "$work/initramfs/modules" "$work/share/results" "$work/share/logs"
work=$(cd "$work" && pwd)
log=$work/console.log
summary=$work/summary.txt

# --- The initramfs: busybox, the modules that mount 9p over virtio and the overlay, Tests/VM/init --
# Debian's kernel has virtio-pci, 9p and overlayfs as modules; insmod loads no dependencies, so each module
# goes after the ones it depends on (modinfo's `depends`), whatever this kernel version needs.
ordered=()
add_module() {
    local name=$1 path dependency
    case " ${ordered[*]-} " in *" $name "*) return ;; esac
    path=$(modinfo -k "$version" -n "$name") || skip "kernel $version has no module $name"
    for dependency in $(modinfo -k "$version" -F depends "$name" | tr ',' ' '); do add_module "$dependency"; done
    # A module built into this kernel needs no loading.
    case "$path" in /*) cp "$path" "$work/initramfs/modules/$name.ko"; ordered+=("$name") ;; esac
}
for module in virtio_pci 9pnet_virtio 9p overlay; do add_module "$module"; done
printf '%s\n' "${ordered[@]}" >"$work/initramfs/modules/order"
cp "$busybox" "$work/initramfs/bin/busybox"
cp "$here/init" "$work/initramfs/init"
chmod +x "$work/initramfs/init"
(cd "$work/initramfs" && find . | "$busybox" cpio -o -H newc 2>/dev/null | gzip -1 >"$work/initramfs.gz")

# --- What the guest needs to know, in the share (the kernel command line would split on spaces) --
{
    printf 'export VM_REPO=%q VM_PASSKEY=%q VM_PYTHON=%q VM_STEPS=%q\n' \
        "$repo" "$passkey" "$python" "${VM_STEPS:-.}"
    printf 'export VM_GUEST=%q\n' "$here/guest.sh"
    for knob in VM_CHROMIUM VM_CHROMIUM_SECONDS VM_CHROMIUM_FLAGS; do
        [ -z "${!knob:-}" ] || printf 'export %s=%q\n' "$knob" "${!knob}"
    done
} >"$work/share/config.sh"

# --- The VM: TCG (KVM does not work here), multi-threaded over VM_CPUS vCPUs, no default devices,
# the console on a file, this machine's / read-only and the share read-write over virtio-9p --------
echo "vm-test: booting $kernel under qemu (TCG, ${VM_CPUS:-2} vCPUs, ${VM_MEMORY:-2048} MiB), at most ${seconds}s;" \
    "log: $log"
status=0
timeout -k 10 "$seconds" "$qemu" \
    -nodefaults -no-user-config -display none -no-reboot \
    -accel tcg,thread=multi -cpu max -smp "${VM_CPUS:-2}" -m "${VM_MEMORY:-2048}" \
    -kernel "$kernel" -initrd "$work/initramfs.gz" \
    -append "console=ttyS0 panic=-1 quiet loglevel=4" \
    -serial "file:$log" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$work/share,mount_tag=vmshare,security_model=none,multidevs=remap" \
    </dev/null >"$work/qemu.log" 2>&1 || status=$?

# --- The results: one line per step, failures with their log's last lines ------------------------
results=$work/share/results/steps.tsv
failed=0
{
    if [ -f "$results" ]; then
        while IFS=$'\t' read -r name result secs; do
            printf 'vm-test: %-28s %-4s %6ss\n' "$name" "$result" "$secs"
            if [ "$result" != pass ]; then
                failed=$((failed + 1))
                tail -n 15 "$work/share/logs/$name.log" 2>/dev/null | sed 's/^/    | /'
            fi
        done <"$results"
    fi
    if [ "$status" = 124 ] || [ "$status" = 137 ]; then
        echo "vm-test: FAIL: the VM was stopped after ${seconds}s (VM_SECONDS); its console's last lines:"
        tail -n 20 "$log" | sed 's/^/    | /'
        failed=$((failed + 1))
    elif [ ! -f "$work/share/results/finished" ]; then
        echo "vm-test: FAIL: the guest did not finish its steps (qemu exit $status); the console's last lines:"
        tail -n 20 "$log" | sed 's/^/    | /'
        tail -n 5 "$work/qemu.log" | sed 's/^/    | qemu: /'
        failed=$((failed + 1))
    fi
    total=$(($(date +%s) - started))
    if [ "$failed" = 0 ]; then
        echo "vm-test: passed: $(wc -l <"$results") steps in ${total}s"
    else
        echo "vm-test: FAILED: $failed of the steps failed or did not run, in ${total}s (logs in $work/share/logs)"
    fi
} | tee "$summary"
grep -q '^vm-test: passed' "$summary"
exit
}
