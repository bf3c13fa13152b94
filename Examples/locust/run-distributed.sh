#!/usr/bin/env bash
# Locust in distributed mode on loopback: a local tenant, one master and two workers, each worker
# with its own `passkey serve`. Fails on any Locust failure or when no request was made.
#   PASSKEY_BIN      the passkey binary (default: passkey on PATH)
#   LOCUST           the locust command (default: .venv/bin/locust)
#   LOCUST_SECONDS   how long to run (default 15), LOCUST_USERS (default 8)
#   TENANTS          1 (default): one tenant on an in-memory SQLite database. N >= 2: a throwaway
#                    PostgreSQL cluster (Tests/Support/pg-cluster.sh), N `passkey tenant serve
#                    --db postgres://…` instances on it and nginx in front (Examples/nginx), which
#                    the virtual users sign up and log in through; every instance must answer some.
#   NGINX            the nginx binary (default: nginx on PATH, else /usr/sbin/nginx)
set -euo pipefail
cd "$(dirname "$0")"
PASSKEY_BIN=${PASSKEY_BIN:-passkey}
LOCUST=${LOCUST:-../../.venv/bin/locust}
SECONDS_TO_RUN=${LOCUST_SECONDS:-15}
USERS=${LOCUST_USERS:-8}
TENANTS=${TENANTS:-1}
NGINX=${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}
cluster=../../Tests/Support/pg-cluster.sh
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -d "$work/pg" ]; then bash "$cluster" stop "$work/pg" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# launch NAME COMMAND...: runs a server in the background; await NAME waits for its one-line JSON
# start line.
launch() {
  local name=$1; shift
  "$@" >"$work/$name.json" 2>"$work/$name.err" &
  pids+=($!)
}
await() {
  for _ in $(seq 100); do [ -s "$work/$1.json" ] && return 0; sleep 0.1; done
  echo "run-distributed: $1 did not start" >&2; cat "$work/$1.err" >&2; exit 1
}
start() { launch "$@"; await "$1"; }
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/$1.json" "$2"; }
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }

if [ "$TENANTS" -le 1 ]; then
  start tenant "$PASSKEY_BIN" tenant serve --json --db :memory:
  export TENANT_URL=$(field tenant url) TENANT_CLIENT_ID=$(field tenant client_id)
else
  # One database for all instances; they start at once, so the schema's advisory lock is used.
  # The cluster runs as user postgres when this runs as root: it must reach its directory.
  chmod 711 "$work"
  db=$(bash "$cluster" start "$work/pg")
  ports=()
  for n in $(seq "$TENANTS"); do
    ports+=("$(free_port)")
    # The same domain (issuer, RP ID localhost) at every instance: the default. nginx (on loopback)
    # names each client in X-Forwarded-For, so the attempt limit counts per client, not per nginx.
    launch "tenant$n" "$PASSKEY_BIN" tenant serve --json --db "$db" --port "${ports[-1]}" --trusted-proxy 127.0.0.1
  done
  for n in $(seq "$TENANTS"); do await "tenant$n"; done
  export TENANT_CLIENT_ID=$(field tenant1 client_id)
  for n in $(seq 2 "$TENANTS"); do
    [ "$(field "tenant$n" client_id)" = "$TENANT_CLIENT_ID" ] || {
      echo "run-distributed: tenant$n has another client ID than tenant1" >&2; exit 1; }
  done
  # Examples/nginx/nginx.conf with free ports and one upstream server line per instance.
  nginx_port=$(free_port)
  mkdir -p "$work/nginx/logs"
  upstreams=$(for port in "${ports[@]}"; do printf '        server 127.0.0.1:%s;\\n' "$port"; done)
  sed -e "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$nginx_port;/" \
    -e "/server 127.0.0.1:8082;/d" -e "s/^        server 127.0.0.1:8081;\$/$upstreams/" \
    ../nginx/nginx.conf >"$work/nginx/nginx.conf"
  "$NGINX" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e stderr 2>"$work/nginx.err" &
  pids+=($!)
  export TENANT_URL="http://localhost:$nginx_port"
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "$TENANT_URL/.well-known/jwks.json" 2>/dev/null && break
    sleep 0.1
  done
  curl -fsS -o /dev/null "$TENANT_URL/.well-known/jwks.json" || {
    echo "run-distributed: nginx did not start" >&2; cat "$work/nginx.err" >&2; exit 1; }
fi
master_port=$(free_port)

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
  for log in "$work"/worker*.out "$work"/*.err "$work"/nginx/logs/access.log; do
    if [ -s "$log" ]; then echo "--- $(basename "$log")" >&2; tail -15 "$log" >&2; fi
  done
  exit 1
fi
if [ "$TENANTS" -gt 1 ]; then
  # Every instance answered signups and logins (the token endpoint), with no error status.
  for port in "${ports[@]}"; do
    count=$(grep -c "POST /oauth/token.* 200 upstream=127.0.0.1:$port " "$work/nginx/logs/access.log" || true)
    echo "run-distributed: instance on port $port issued tokens $count times"
    [ "$count" -gt 0 ] || { echo "run-distributed: the instance on port $port answered no login" >&2; exit 1; }
  done
  if grep -E '" [45][0-9][0-9] upstream=' "$work/nginx/logs/access.log" | head -5 | grep .; then
    echo "run-distributed: nginx passed error answers" >&2; exit 1
  fi
fi
echo "run-distributed: passed"
