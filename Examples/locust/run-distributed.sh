#!/usr/bin/env bash
# Locust in distributed mode on loopback: a local tenant, one master and two workers, each worker
# with its own `passkey serve`. Fails on any Locust failure or when no request was made.
#   PASSKEY_BIN      the passkey binary (default: passkey on PATH)
#   LOCUST           the locust command (default: .venv/bin/locust)
#   LOCUST_SECONDS   how long to run (default 15), LOCUST_USERS (default 8)
set -euo pipefail
cd "$(dirname "$0")"
PASSKEY_BIN=${PASSKEY_BIN:-passkey}
LOCUST=${LOCUST:-../../.venv/bin/locust}
SECONDS_TO_RUN=${LOCUST_SECONDS:-15}
USERS=${LOCUST_USERS:-8}
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# start NAME COMMAND...: runs a server in the background and waits for its one-line JSON start line.
start() {
  local name=$1; shift
  "$@" >"$work/$name.json" 2>"$work/$name.err" &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$work/$name.json" ] && return 0; sleep 0.1; done
  echo "run-distributed: $name did not start" >&2; cat "$work/$name.err" >&2; exit 1
}
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/$1.json" "$2"; }

start tenant "$PASSKEY_BIN" tenant serve --json --db :memory:
export TENANT_URL=$(field tenant url) TENANT_CLIENT_ID=$(field tenant client_id)
master_port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")

"$LOCUST" -f locustfile.py --master --master-bind-host 127.0.0.1 --master-bind-port "$master_port" --headless \
  --expect-workers 2 -u "$USERS" -r "$USERS" -t "${SECONDS_TO_RUN}s" --only-summary --stop-timeout 5 \
  >"$work/master.out" 2>&1 &
master=$!
for worker in 1 2; do
  start "serve$worker" "$PASSKEY_BIN" serve --json
  PASSKEY_SERVE_URL=$(field "serve$worker" url) PASSKEY_SERVE_TOKEN=$(field "serve$worker" token) \
    "$LOCUST" -f locustfile.py --worker --master-host 127.0.0.1 --master-port "$master_port" \
    >"$work/worker$worker.out" 2>&1 &
  pids+=($!)
done
status=0
wait "$master" || status=$?
grep -E "Aggregated|signup|login|Type" "$work/master.out" | head -20 || true
if [ "$status" -ne 0 ]; then
  echo "run-distributed: locust failed (exit $status)" >&2
  tail -40 "$work/master.out" >&2
  exit 1
fi
echo "run-distributed: passed"
