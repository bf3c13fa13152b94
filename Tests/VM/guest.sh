#!/bin/bash
# The VM stage inside the VM (Tests/VM/init hands over to it as PID 1, the host's / under a tmpfs
# overlay, the share on /run/vm): prepares what a system would have (devpts, /dev/shm, loopback, the
# uhid and hid-generic modules), then runs each step of Tests/VM/steps.sh bounded and records it for run.sh, and always
# powers the VM off at the end, whatever happened.
#
# Devices: each group of steps talks to one `passkey device --uhid` over a fresh store on the
# share, started here and stopped here (SIGTERM, then SIGKILL after a bound), so a step that fails
# or times out leaves no device behind for the next group.
set -u
# The whole script is one compound command, read before it runs: a checkout or merge that changes this
# file while the stage runs cannot change what runs.
{
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
share=/run/vm
results=$share/results/steps.tsv
logs=$share/logs
steps=$(dirname "$VM_GUEST")/steps.sh

# PID 1 must not exit (the kernel would panic); powering off is what ends qemu. sysrq 'o' needs no
# init system and is allowed through /proc whatever the kernel.sysrq setting.
power_off() {
    sync
    echo o >/proc/sysrq-trigger
    sleep 60
}
trap power_off EXIT

# A console line, with the seconds since the kernel started.
say() { echo "vm guest [$(cut -d ' ' -f 1 /proc/uptime)s]: $*"; }

# --- What a booted system has and the tools expect ----------------------------------------------
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /dev/shm
ip link set lo up
# A home and a temporary directory of the guest's own, empty (the host's /tmp is visible, its files
# are not the guest's business).
export HOME=/run/home TMPDIR=/run/tmp LANG=C.UTF-8
mkdir -p "$HOME" "$TMPDIR"
# Debian's kernel has UHID as a module; without hid-generic no driver binds the device and no
# hidraw node appears. devtmpfs makes /dev/uhid and /dev/hidrawN (no udev).
modprobe -a uhid hid_generic || say "modprobe uhid hid_generic failed"

# --- Steps ---------------------------------------------------------------------------------------
# step NAME SECONDS: runs `steps.sh NAME` with at most SECONDS (then SIGTERM, and SIGKILL 5 s later,
# to the step's whole process group: timeout makes one), its output in logs/NAME.log, and appends
# "NAME<TAB>pass|fail<TAB>seconds" to the results. Steps outside VM_STEPS do not run.
step() {
    local name=$1 bound=$2 begun ended status result
    [[ $name =~ $VM_STEPS ]] || return 0
    begun=$(date +%s.%N)
    timeout -k 5 "$bound" bash "$steps" "$name" >"$logs/$name.log" 2>&1 </dev/null
    status=$?
    ended=$(date +%s.%N)
    result=pass
    if [ "$status" != 0 ]; then
        result=fail
        [ "$status" = 124 ] && echo "vm: the step took more than its ${bound}s" >>"$logs/$name.log"
        echo "vm: exit status $status" >>"$logs/$name.log"
    fi
    awk -v n="$name" -v r="$result" -v b="$begun" -v e="$ended" 'BEGIN { printf "%s\t%s\t%.1f\n", n, r, e - b }' \
        >>"$results"
    say "$(tail -n 1 "$results")"
}

# device_start NAME [FLAGS...]: `passkey device --uhid` over the store $share/devices/NAME/store, in
# the background; its pid, output and exit status in $share/devices/NAME (the steps read DEVICE).
device_start() {
    local name=$1
    shift
    export DEVICE=$share/devices/$name
    mkdir -p "$DEVICE"
    # The hidraw nodes before it: the device's own is the one that appears after (steps.sh plug).
    ls /sys/class/hidraw >"$DEVICE/nodes-before" 2>/dev/null
    (
        bash -c 'echo $$ >"$0/pid"; exec "$@"' "$DEVICE" \
            "$VM_PASSKEY" device --uhid --store "$DEVICE/store" "$@" >"$DEVICE/stdout" 2>"$DEVICE/stderr"
        echo $? >"$DEVICE/exit"
    ) &
}

# device_stop: SIGTERM to the group's device if it still runs, SIGKILL after 30 s. (Its pid may not
# be written yet when no step of the group ran.)
device_stop() {
    local pid waited
    for waited in $(seq 100); do
        [ -s "$DEVICE/pid" ] || [ -e "$DEVICE/exit" ] && break
        sleep 0.1
    done
    pid=$(cat "$DEVICE/pid" 2>/dev/null) || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for waited in $(seq 300); do
        [ -e "$DEVICE/exit" ] && return 0
        sleep 0.1
    done
    say "device $(basename "$DEVICE") did not stop on SIGTERM within 30 s: killed"
    kill -KILL "$pid" 2>/dev/null
    sleep 1
}

say "kernel $(uname -r), $(nproc) CPUs; steps matching '$VM_STEPS'"

# libfido2's tools on a device without a PIN, then with one; U2F before the PIN (a U2F key knows
# no PIN); credential management; Reset refused; SIGTERM unplugs it.
device_start basic
step plug 60
step token-list 60
step token-info 60
step cred-assert 120
step cred-assert-resident 120
step u2f-cred-assert 120
step set-pin 60
step cred-assert-pin 120
step cred-assert-resident-pin 120
step credman 120
step reset-refused 60
step unplug 60
device_stop

# OpenSSH's security-key types, resident, on a device with a PIN (ssh-keygen -K needs one).
device_start ssh
step plug-ssh 60
step set-pin-ssh 60
step ssh-ecdsa-sk 120
step ssh-ed25519-sk 120
step ssh-download-resident 120
device_stop

# --presence deny: the device refuses what needs a touch.
device_start deny --presence deny
step plug-deny 60
step presence-denied 60
device_stop

# Built-in user verification: UV without any PIN.
device_start uv --uv auto
step plug-uv 60
step uv-without-pin 120
device_stop

# Chromium's own WebAuthn stack on a page served here (the slow part: Chromium starts in minutes
# under TCG).
device_start chromium
step plug-chromium 60
step chromium-create-get 420
device_stop

# The interop suite's UHID test, which skips on machines without /dev/uhid, runs here for real.
step test-uhid-py 180

say "done"
touch "$share/results/finished"
exit
}
