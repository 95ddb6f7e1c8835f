#!/usr/bin/env bash
# Start a throwaway PostgreSQL cluster for Weft's tests and print its URL on stdout.
#
#   url=$(bash scripts/start_postgres.sh)   # e.g. postgresql://weft:weft@127.0.0.1:54329/weft
#   WEFT_TEST_DATABASE_URL=$url .venv/bin/python -m pytest tests/db -q
#   bash scripts/start_postgres.sh stop     # stop it (the data folder is kept; delete it to start afresh)
#
# The server is the PostgreSQL of the `pgserver` wheel (a dev extra, installed by scripts/setup), which ships
# the pgvector extension too: nothing is installed on the machine and nothing is built. The database gets the
# `vector` extension in a schema of its own, `extensions`, on its search path (tests that drop and recreate
# `public` keep it), for the PGVector vector store's tests.
# Idempotent: creates the cluster once, starts it when it is not running, and creates the role and database
# when they do not exist. A cluster of another PostgreSQL version in the data folder (an older version of this
# script used Debian's PostgreSQL) is stopped and replaced. The cluster is tuned for tests (fsync off): never
# keep data in it. Everything but the URL goes to stderr.
# Settings: WEFT_PG_PORT (54329), WEFT_PG_DATA (/tmp/weft-postgres), WEFT_PG_USER/PASSWORD/DB (weft),
# WEFT_PG_PYTHON (.venv/bin/python, the environment with pgserver), WEFT_PG_OS_USER (nobody: the server
# refuses to run as root, so as root it runs as this user).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${WEFT_PG_PORT:-54329}"
DATA="${WEFT_PG_DATA:-/tmp/weft-postgres}"
USER_NAME="${WEFT_PG_USER:-weft}"
PASSWORD="${WEFT_PG_PASSWORD:-weft}"
DB_NAME="${WEFT_PG_DB:-weft}"
PYTHON="${WEFT_PG_PYTHON:-$ROOT/.venv/bin/python}"
OS_USER="${WEFT_PG_OS_USER:-nobody}"
SOCKET_DIR="$DATA/socket"

log() { echo "start_postgres: $*" >&2; }

# pgserver's PostgreSQL: the wheel's pginstall folder (bin/, lib/postgresql/vector.so, share/…/extension).
PGINSTALL=$("$PYTHON" -c '
import importlib.util, pathlib
spec = importlib.util.find_spec("pgserver")
print(pathlib.Path(spec.origin).parent / "pginstall" if spec and spec.origin else "")
' 2>/dev/null || true)
if [[ -z "$PGINSTALL" || ! -x "$PGINSTALL/bin/postgres" ]]; then
    log "pgserver is not installed in $PYTHON's environment: run 'bash scripts/setup' (it is a dev extra)"
    exit 1
fi

is_root() { [[ "$(id -u)" == 0 ]]; }

# As root, run the server's programs as $OS_USER; otherwise as ourselves.
as_owner() {
    if is_root; then
        runuser -u "$OS_USER" -- "$@"
    else
        "$@"
    fi
}

# $OS_USER may not reach a venv under a private folder (/root): then run a copy kept in /tmp, made once. The
# programs find their shared libraries in ../../../pgserver.libs (the wheel's), so that folder is copied too.
if is_root && ! as_owner test -x "$PGINSTALL/bin/postgres"; then
    version=$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("pgserver"))')
    copy="/tmp/weft-pgserver-$version"
    if [[ ! -x "$copy/pgserver/pginstall/bin/postgres" ]]; then
        log "copying pgserver's PostgreSQL to $copy ($OS_USER cannot read $PGINSTALL)"
        rm -rf "$copy.tmp" && mkdir -p "$copy.tmp/pgserver"
        cp -a "$PGINSTALL" "$copy.tmp/pgserver/" && cp -a "$PGINSTALL/../../pgserver.libs" "$copy.tmp/"
        chmod -R a+rX "$copy.tmp" && rm -rf "$copy" && mv "$copy.tmp" "$copy"
    fi
    PGINSTALL="$copy/pgserver/pginstall"
fi
BIN="$PGINSTALL/bin"
MAJOR=$("$BIN/postgres" --version | sed -E 's/.* ([0-9]+)[.0-9]*$/\1/')

if [[ "${1:-}" == "stop" ]]; then
    as_owner "$BIN/pg_ctl" -D "$DATA" -m fast stop >&2 || true
    exit 0
fi

# A cluster of another version (Debian's PostgreSQL 15 of older checkouts): stop it, then start afresh.
if [[ -f "$DATA/PG_VERSION" && "$(cat "$DATA/PG_VERSION")" != "$MAJOR" ]]; then
    log "replacing the PostgreSQL $(cat "$DATA/PG_VERSION") cluster in $DATA with a PostgreSQL $MAJOR one"
    if [[ -f "$DATA/postmaster.pid" ]]; then
        pid=$(head -n 1 "$DATA/postmaster.pid")
        kill -INT "$pid" 2>/dev/null || true
        for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    fi
    rm -rf "$DATA"
fi

if [[ ! -f "$DATA/PG_VERSION" ]]; then
    log "creating cluster in $DATA"
    mkdir -p "$DATA"
    if is_root; then chown "$OS_USER" "$DATA"; fi
    chmod 700 "$DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >&2
fi
mkdir -p "$SOCKET_DIR"
if is_root; then chown "$OS_USER" "$SOCKET_DIR"; fi

if ! as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
    log "starting on 127.0.0.1:$PORT"
    as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start \
        -o "-p $PORT -k $SOCKET_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" >&2
fi

psql_as_admin() {
    local db="$1"
    shift
    as_owner "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d "$db" -v ON_ERROR_STOP=1 -qtA "$@"
}

if [[ "$(psql_as_admin postgres -c "SELECT 1 FROM pg_roles WHERE rolname = '$USER_NAME'")" != 1 ]]; then
    psql_as_admin postgres -c "CREATE ROLE \"$USER_NAME\" LOGIN PASSWORD '$PASSWORD'" >&2
fi
if [[ "$(psql_as_admin postgres -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]]; then
    psql_as_admin postgres -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$USER_NAME\"" >&2
fi

# pgvector, in a schema of its own on the database's search path: tests that drop and recreate 'public' keep it.
psql_as_admin "$DB_NAME" -c "SET client_min_messages = warning" \
    -c "CREATE SCHEMA IF NOT EXISTS extensions AUTHORIZATION \"$USER_NAME\"" \
    -c "CREATE EXTENSION IF NOT EXISTS vector SCHEMA extensions" \
    -c "ALTER DATABASE \"$DB_NAME\" SET search_path = \"\$user\", public, extensions" >&2

echo "postgresql://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DB_NAME"
