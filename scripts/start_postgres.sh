#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for Weft's tests and print its URL on stdout.
#
#   url=$(bash scripts/start_postgres.sh)   # e.g. postgresql://weft:weft@127.0.0.1:54329/weft
#   WEFT_TEST_DATABASE_URL=$url .venv/bin/python -m pytest tests/db -q
#   bash scripts/start_postgres.sh stop     # stop it (the data folder is kept; delete it to start afresh)
#
# Idempotent: installs PostgreSQL with apt-get when it is missing, creates the cluster once, starts it
# when it is not running, and creates the role and database when they do not exist. The cluster is
# tuned for tests (fsync off): never keep data in it. Everything but the URL goes to stderr.
# Settings: WEFT_PG_PORT (54329), WEFT_PG_DATA (/tmp/weft-postgres), WEFT_PG_USER/PASSWORD/DB (weft).
set -euo pipefail

PORT="${WEFT_PG_PORT:-54329}"
DATA="${WEFT_PG_DATA:-/tmp/weft-postgres}"
USER_NAME="${WEFT_PG_USER:-weft}"
PASSWORD="${WEFT_PG_PASSWORD:-weft}"
DB_NAME="${WEFT_PG_DB:-weft}"
SOCKET_DIR="$DATA/socket"

log() { echo "start_postgres: $*" >&2; }

find_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [[ -z "$dir" ]] && command -v pg_ctl >/dev/null 2>&1; then
        dir=$(dirname "$(readlink -f "$(command -v pg_ctl)")")
    fi
    echo "$dir"
}

BIN=$(find_bin)
if [[ -z "$BIN" || ! -x "$BIN/initdb" ]]; then
    if [[ "$(id -u)" != 0 ]]; then
        log "PostgreSQL is not installed and this is not root: install the 'postgresql' package first."
        exit 1
    fi
    log "installing PostgreSQL with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
    BIN=$(find_bin)
fi

# The server refuses to run as root: as root, run it as the 'postgres' user the package creates.
as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

if [[ "${1:-}" == "stop" ]]; then
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast stop >&2 || true
    exit 0
fi

if [[ ! -f "$DATA/PG_VERSION" ]]; then
    log "creating cluster in $DATA"
    mkdir -p "$DATA"
    [[ "$(id -u)" == 0 ]] && chown postgres:postgres "$DATA"
    chmod 700 "$DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >&2
fi
mkdir -p "$SOCKET_DIR"
[[ "$(id -u)" == 0 ]] && chown postgres:postgres "$SOCKET_DIR"

if ! as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    log "starting on 127.0.0.1:$PORT"
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start \
        -o "-p $PORT -k $SOCKET_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
fi

psql_admin() { as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

if [[ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$USER_NAME'")" != 1 ]]; then
    psql_admin -c "CREATE ROLE \"$USER_NAME\" LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [[ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]]; then
    psql_admin -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$USER_NAME\"" >&2
fi

echo "postgresql://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DB_NAME"
