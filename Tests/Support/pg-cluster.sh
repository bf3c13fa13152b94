#!/bin/bash
# A throwaway PostgreSQL cluster for the tests: data in DIR/data, listening on a Unix socket in DIR
# only (no TCP port), durability off for speed (the cluster dies with the test run), and connections
# for the hundreds of test tenants a run opens at once (a small pool each).
#
#   pg-cluster.sh start DIR     initdb when DIR/data is new, start, wait until it accepts
#                               connections, print the admin URL postgres://postgres@/postgres?host=DIR
#   pg-cluster.sh stop DIR      stop (fast shutdown: open connections are closed)
#   pg-cluster.sh restart DIR   stop and start again (the fault test), print the admin URL
#
# PostgreSQL refuses to run as root: as root, the server runs as user postgres (runuser) and DIR is
# given to that user. PG_BIN overrides where initdb and pg_ctl are (Debian's 15 by default).
set -euo pipefail

usage() {
    echo "usage: $0 start|stop|restart DIR" >&2
    exit 2
}
[[ $# -eq 2 ]] || usage
action=$1
dir=$(realpath -m -- "$2")
bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
owner=postgres

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u "$owner" -- "$@"
    else
        "$@"
    fi
}

start() {
    mkdir -p "$dir"
    [[ $(id -u) -ne 0 ]] || chown "$owner:$owner" "$dir"
    if [[ ! -f $dir/data/PG_VERSION ]]; then
        as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
            >"$dir/initdb.log" 2>&1 || {
            cat "$dir/initdb.log" >&2
            exit 1
        }
    fi
    # -w: wait until the server accepts connections (at most -t seconds).
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1000 -c shared_buffers=64MB" \
        start >/dev/null || {
        tail -20 "$dir/server.log" >&2
        exit 1
    }
    echo "postgres://postgres@/postgres?host=$dir"
}

stop() {
    if [[ -f $dir/data/postmaster.pid ]]; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    fi
}

case $action in
start) start ;;
stop) stop ;;
restart)
    stop
    start
    ;;
*) usage ;;
esac
