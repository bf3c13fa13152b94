#!/bin/bash
# One step of the VM stage, run inside the VM by guest.sh: `bash steps.sh NAME`, bounded there, its
# output the step's log; exit 0 is a pass. DEVICE is the directory of the running
# `passkey device --uhid` (its pid, stdout, stderr, exit status, store; the files steps share).
#
# The clients are the distribution's, unmodified: libfido2's fido2-token, fido2-cred and
# fido2-assert (1.12 on Debian 12), OpenSSH's ssh-keygen, Chromium, and the interop suite's
# test_uhid.py. Every command is traced (set -x), so a failure's last lines say what ran.
set -euo pipefail
PS4='+ '
set -x

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The PIN the steps set and type; a test value, not a secret.
PIN=vm-pin-2468
# The PIN as the tools read it on standard input when there is no terminal.
printf '%s\n' "$PIN" >"$DEVICE/pin"
# What the device looks like in the HID device's uevent: UHID_CREATE2's bus (USB), vendor
# (pid.codes), test product, and name.
HID_ID=0003:00001209:00000001
HID_NAME=SoftPasskey

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.2 s until it succeeds; fails after SECONDS.
wait_for() {
    local seconds=$1 what=$2 deadline
    shift 2
    deadline=$(($(date +%s) + seconds))
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || fail "no $what after ${seconds}s"
        sleep 0.2
    done
}


random_base64() { head -c "$1" /dev/urandom | base64 -w 0 && echo; }

# --- Plugging in ----------------------------------------------------------------------------------

# Our hidraw node that was not there before the device started: the HID device's uevent carries
# UHID_CREATE2's IDs and name, and devtmpfs has made the /dev node.
new_node() {
    local entry name
    for entry in /sys/class/hidraw/hidraw*; do
        name=$(basename "$entry")
        grep -qx "$name" "$DEVICE/nodes-before" && continue
        grep -qx "HID_ID=$HID_ID" "$entry/device/uevent" 2>/dev/null || continue
        grep -qx "HID_NAME=$HID_NAME" "$entry/device/uevent" || continue
        [ -c "/dev/$name" ] || continue
        echo "/dev/$name" >"$DEVICE/hidraw"
        NODE=/dev/$name
        return 0
    done
    return 1
}

device_says_plugged_in() {
    [ ! -e "$DEVICE/exit" ] || { cat "$DEVICE/stderr"; fail "the device exited with $(cat "$DEVICE/exit")"; }
    grep -q '^passkey device plugged in through /dev/uhid' "$DEVICE/stdout"
}

# The device prints its line, and the kernel gives it a hidraw node of its own.
plug() {
    wait_for 45 "'plugged in' line from the device" device_says_plugged_in
    wait_for 15 "new hidraw node with HID_ID=$HID_ID and HID_NAME=$HID_NAME" new_node
    cat "/sys/class/hidraw/$(basename "$NODE")/device/uevent"
    echo "node: $NODE"
}

# --- libfido2's tools -------------------------------------------------------------------------------

# `fido2-token -L` enumerates hidraw devices through udev's library (sysfs; no udev daemon here) and
# lists ours by its USB IDs; libfido2 1.12 reads the manufacturer and product strings only from a
# USB parent device, which a UHID device has not, so they are empty (1.15 falls back to the HID name).
token_list() {
    local listed
    listed=$(fido2-token -L)
    echo "$listed"
    grep -q "^$NODE: vendor=0x1209, product=0x0001 " <<<"$listed" || fail "$NODE is not listed as 1209:0001"
}

# `fido2-token -I`: getInfo over the node (CTAPHID INIT, then CTAP2 authenticatorGetInfo).
token_info() {
    local info
    info=$(fido2-token -I "$NODE")
    echo "$info"
    grep -q 'FIDO_2_0' <<<"$info" || fail "no FIDO_2_0 in the versions"
    grep -q 'FIDO_2_1' <<<"$info" || fail "no FIDO_2_1 in the versions"
    grep -Eq '^options: .*\bnoclientPin\b' <<<"$info" || fail "a fresh store has a PIN"
}

# make_credential NAME RP "MAKE FLAGS" "VERIFY FLAGS": fido2-cred -M (a PIN typed on standard input
# if the device asks), then -V, which checks the attestation's signature and the flags asked;
# NAME.cred then holds the credential ID and its public key (PEM), NAME.param what was asked.
make_credential() {
    local name=$DEVICE/$1 rp=$2 make=$3 verify=$4
    { random_base64 32; echo "$rp"; echo "vm-user"; random_base64 16; } >"$name.param"
    # shellcheck disable=SC2086 # the flags are words
    fido2-cred -M $make -i "$name.param" -o "$name.made" "$NODE" es256 <"$DEVICE/pin"
    cat "$name.made"
    # shellcheck disable=SC2086
    fido2-cred -V $verify -i "$name.made" -o "$name.cred" es256
    echo "credential: $(head -n 1 "$name.cred"), format $(sed -n 3p "$name.made")"
}

# get_assertion NAME RP "GET FLAGS" "VERIFY FLAGS" [by-id]: fido2-assert -G (with NAME's credential
# ID in its input unless the credential is found as a resident one), then -V against NAME's public key.
get_assertion() {
    local name=$DEVICE/$1 rp=$2 get=$3 verify=$4 by_id=${5:-}
    { random_base64 32; echo "$rp"; if [ -n "$by_id" ]; then head -n 1 "$name.cred"; fi; } >"$name.assert-param"
    # shellcheck disable=SC2086
    fido2-assert -G $get -i "$name.assert-param" -o "$name.assertion" "$NODE" <"$DEVICE/pin"
    cat "$name.assertion"
    tail -n +2 "$name.cred" >"$name.pem"
    # shellcheck disable=SC2086
    fido2-assert -V $verify -i "$name.assertion" "$name.pem" es256
}

# A resident credential's assertion carries the user ID it was made with.
same_user() {
    local name=$DEVICE/$1
    [ "$(sed -n 5p "$name.assertion")" = "$(sed -n 4p "$name.param")" ] ||
        fail "the assertion's user ID is not the credential's"
}

cred_assert() {
    make_credential plain vm-plain.example "" ""
    [ "$(sed -n 3p "$DEVICE/plain.made")" = packed ] || fail "not the security-key profile's packed attestation"
    get_assertion plain vm-plain.example "" "" by-id
}

cred_assert_resident() {
    make_credential resident vm-resident.example "-r" ""
    get_assertion resident vm-resident.example "-r" ""
    same_user resident
}

# U2F (CTAP1 over CTAPHID_MSG, CTAP 2.1 §11.2.9.1.1): libfido2 forced to U2F registers (fido-u2f
# attestation) and authenticates by key handle.
u2f_cred_assert() {
    make_credential u2f vm-u2f.example "-u" ""
    [ "$(sed -n 3p "$DEVICE/u2f.made")" = fido-u2f ] || fail "not a fido-u2f attestation"
    get_assertion u2f vm-u2f.example "-u" "" by-id
}

# ClientPIN setPIN through the node; getInfo then says clientPin.
set_pin() {
    printf '%s\n%s\n' "$PIN" "$PIN" | fido2-token -S "$NODE"
    fido2-token -I "$NODE" | grep -E '^options: .*\bclientPin\b' || fail "getInfo does not say clientPin"
}

# With a PIN set: a credential that is not resident needs none (getInfo's makeCredUvNotRqd, CTAP 2.1
# §6.1.2), so fido2-cred makes it without asking; fido2-assert -v types the PIN and the assertion's
# authenticator data says UV (-V -v checks the flag).
cred_assert_pin() {
    make_credential pin vm-pin.example "" ""
    get_assertion pin vm-pin.example "-v" "-v" by-id
}

cred_assert_resident_pin() {
    make_credential resident-pin vm-resident-pin.example "-r" "-v"
    get_assertion resident-pin vm-resident-pin.example "-r -v" "-v"
    same_user resident-pin
}

# Credential management (CTAP 2.1 §6.8) with the PIN: the RPs of the resident credentials, one RP's
# credentials, one deleted and gone.
credman() {
    local rps credentials id
    rps=$(fido2-token -L -r "$NODE" <"$DEVICE/pin")
    echo "$rps"
    grep -q ' vm-resident\.example$' <<<"$rps" || fail "vm-resident.example is not listed"
    grep -q ' vm-resident-pin\.example$' <<<"$rps" || fail "vm-resident-pin.example is not listed"
    id=$(head -n 1 "$DEVICE/resident-pin.cred")
    credentials=$(fido2-token -L -k vm-resident-pin.example "$NODE" <"$DEVICE/pin")
    echo "$credentials"
    grep -qF " $id " <<<"$credentials" || fail "the credential $id is not listed"
    fido2-token -D -i "$id" "$NODE" <"$DEVICE/pin"
    credentials=$(fido2-token -L -k vm-resident-pin.example "$NODE" <"$DEVICE/pin" || true)
    echo "$credentials"
    ! grep -qF " $id " <<<"$credentials" || fail "the deleted credential is still listed"
}

# authenticatorReset without --allow-reset: CTAP2_ERR_OPERATION_DENIED, and the credentials stay.
reset_refused() {
    local refused
    if refused=$(fido2-token -R "$NODE" 2>&1); then fail "Reset was accepted: $refused"; fi
    echo "$refused"
    grep -q FIDO_ERR_OPERATION_DENIED <<<"$refused" || fail "not refused with FIDO_ERR_OPERATION_DENIED"
    fido2-token -L -r "$NODE" <"$DEVICE/pin" | grep ' vm-resident\.example$' || fail "the credentials went"
}

# SIGTERM: the device writes UHID_DESTROY and exits 0; the kernel removes the hidraw node.
node_gone() { [ ! -e "$NODE" ] && [ ! -e "/sys/class/hidraw/$(basename "$NODE")" ]; }
device_exited() { [ -s "$DEVICE/exit" ]; }
unplug() {
    kill -TERM "$(cat "$DEVICE/pid")"
    wait_for 30 "exit after SIGTERM" device_exited
    [ "$(cat "$DEVICE/exit")" = 0 ] || fail "the device exited with $(cat "$DEVICE/exit"): $(cat "$DEVICE/stderr")"
    wait_for 15 "removal of $NODE" node_gone
    echo "$NODE is gone"
}

# --presence deny: makeCredential needs a touch, so it is CTAP2_ERR_OPERATION_DENIED.
presence_denied() {
    local refused
    { random_base64 32; echo vm-deny.example; echo vm-user; random_base64 16; } >"$DEVICE/deny.param"
    if refused=$(fido2-cred -M -i "$DEVICE/deny.param" "$NODE" es256 2>&1 </dev/null); then
        fail "makeCredential was accepted: $refused"
    fi
    echo "$refused"
    grep -q FIDO_ERR_OPERATION_DENIED <<<"$refused" || fail "not refused with FIDO_ERR_OPERATION_DENIED"
}

# Built-in UV (--uv auto), no PIN anywhere: getInfo says uv; -v asks for UV, and `-t pin=false`
# stops fido2-assert from reading a PIN (its -v asks for one by default), so libfido2 gets a
# pinUvAuthToken by built-in UV (CTAP 2.1 §6.5.5.7); -V -v checks the UV flag.
uv_without_pin() {
    fido2-token -I "$NODE" | tee "$DEVICE/info"
    grep -Eq '^options: .*\buv\b' "$DEVICE/info" || fail "getInfo does not say uv"
    grep -Eq '^options: .*\bnoclientPin\b' "$DEVICE/info" || fail "the device has a PIN"
    : >"$DEVICE/pin"
    make_credential uv vm-uv.example "-v" "-v"
    get_assertion uv vm-uv.example "-v -t pin=false" "-v" by-id
}

# --- OpenSSH ----------------------------------------------------------------------------------------

# ssh-keygen asks for the PIN through SSH_ASKPASS when it has no terminal.
ssh_askpass() {
    printf '#!/bin/sh\necho %s\n' "$PIN" >"$DEVICE/askpass"
    chmod +x "$DEVICE/askpass"
    export SSH_ASKPASS=$DEVICE/askpass SSH_ASKPASS_REQUIRE=force
}

# ssh_key TYPE: a resident key (its own user, so the two types' keys do not replace each other on
# the authenticator), a signature that verifies, and a changed message that does not.
ssh_key() {
    local type=$1 dir=$DEVICE/ssh
    mkdir -p "$dir"
    ssh_askpass
    ssh-keygen -t "$type" -O resident -O "user=vm-$type" -N '' -C "vm@softpasskey" -f "$dir/id_$type"
    echo "signed by the $type key" >"$dir/message-$type"
    ssh-keygen -Y sign -f "$dir/id_$type" -n file "$dir/message-$type"
    echo "vm@softpasskey $(cat "$dir/id_$type.pub")" >"$dir/allowed-$type"
    ssh-keygen -Y verify -f "$dir/allowed-$type" -I vm@softpasskey -n file -s "$dir/message-$type.sig" \
        <"$dir/message-$type"
    if echo "changed" | ssh-keygen -Y verify -f "$dir/allowed-$type" -I vm@softpasskey -n file \
        -s "$dir/message-$type.sig"; then
        fail "a changed message verified"
    fi
}

# ssh-keygen -K: both resident keys come back from the authenticator (credential management, PIN).
ssh_download_resident() {
    local dir=$DEVICE/ssh/download type
    mkdir -p "$dir"
    ssh_askpass
    (cd "$dir" && ssh-keygen -K -N '')
    ls -l "$dir"
    for type in ecdsa-sk ed25519-sk; do
        cut -d ' ' -f 2 "$DEVICE/ssh/id_$type.pub" | grep -qFf - "$dir"/*.pub || fail "the $type key did not come back"
    done
}

# --- Chromium and the interop suite -------------------------------------------------------------------

chromium_create_get() {
    "$VM_PYTHON" "$here/chromium_webauthn.py"
}

# test_uhid.py's real-device test (it skips where /dev/uhid is missing; here it must pass).
test_uhid_py() {
    local out
    cd "$VM_REPO"
    out=$(PASSKEY_BIN=$VM_PASSKEY PYTHONDONTWRITEBYTECODE=1 "$VM_PYTHON" -m pytest -q -p no:cacheprovider -rs \
        "Tests/Interop/test_uhid.py::test_the_device_appears_to_libfido2_and_goes_away" 2>&1) ||
        { echo "$out"; exit 1; }
    echo "$out"
    grep -q '1 passed' <<<"$out" || fail "the test did not pass (skipped?)"
}

# The device's hidraw node, found by its plug step (the steps after it need it).
case "$1" in
    plug | plug-* | chromium-create-get | test-uhid-py) ;;
    *) NODE=$(cat "$DEVICE/hidraw" 2>/dev/null) || fail "the device has no hidraw node (its plug step failed)" ;;
esac

case "$1" in
    plug | plug-*) plug ;;
    token-list) token_list ;;
    token-info) token_info ;;
    cred-assert) cred_assert ;;
    cred-assert-resident) cred_assert_resident ;;
    u2f-cred-assert) u2f_cred_assert ;;
    set-pin | set-pin-*) set_pin ;;
    cred-assert-pin) cred_assert_pin ;;
    cred-assert-resident-pin) cred_assert_resident_pin ;;
    credman) credman ;;
    reset-refused) reset_refused ;;
    unplug) unplug ;;
    presence-denied) presence_denied ;;
    uv-without-pin) uv_without_pin ;;
    ssh-ecdsa-sk) ssh_key ecdsa-sk ;;
    ssh-ed25519-sk) ssh_key ed25519-sk ;;
    ssh-download-resident) ssh_download_resident ;;
    chromium-create-get) chromium_create_get ;;
    test-uhid-py) test_uhid_py ;;
    *) fail "no step $1" ;;
esac
