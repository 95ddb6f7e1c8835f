#!/usr/bin/env bash
# Start a throwaway MariaDB server for Weft's MySQL node tests and print its URL on stdout.
#
#   url=$(bash scripts/start_mariadb.sh)   # e.g. mysql://weft:weft@127.0.0.1:33069/weft
#   WEFT_TEST_MYSQL_URL=$url .venv/bin/python -m pytest tests/nodes/test_mysql*.py -q
#   bash scripts/start_mariadb.sh stop     # stop it (the data folder is kept; delete it to start afresh)
#
# Idempotent: installs MariaDB with apt-get when it is missing (as root), creates the data folder once, starts
# the server when it is not running (127.0.0.1 only), and creates the user and database when they do not exist.
# Everything but the URL goes to stderr.
# Settings: WEFT_MYSQL_PORT (33069), WEFT_MYSQL_DATA (/tmp/weft-mariadb), WEFT_MYSQL_USER/PASSWORD/DB (weft).
set -euo pipefail

PORT="${WEFT_MYSQL_PORT:-33069}"
DATA="${WEFT_MYSQL_DATA:-/tmp/weft-mariadb}"
USER_NAME="${WEFT_MYSQL_USER:-weft}"
PASSWORD="${WEFT_MYSQL_PASSWORD:-weft}"
DB_NAME="${WEFT_MYSQL_DB:-weft}"
SOCKET="$DATA/mysqld.sock"

log() { echo "start_mariadb: $*" >&2; }

if ! command -v mariadbd >/dev/null 2>&1 && [[ ! -x /usr/sbin/mariadbd ]]; then
    if [[ "$(id -u)" != 0 ]]; then
        log "MariaDB is not installed and this is not root: install the 'mariadb-server' package first."
        exit 1
    fi
    log "installing MariaDB with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq mariadb-server >&2
fi
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)
RUN_AS=()
[[ "$(id -u)" == 0 ]] && RUN_AS=(--user=mysql)

client() { mariadb --protocol=socket -S "$SOCKET" -uroot "$@"; }

if [[ "${1:-}" == "stop" ]]; then
    client -e "SHUTDOWN" >&2 2>/dev/null || true
    exit 0
fi

if [[ ! -d "$DATA/mysql" ]]; then
    log "creating data folder $DATA"
    mkdir -p "$DATA"
    [[ "$(id -u)" == 0 ]] && chown mysql:mysql "$DATA"
    mariadb-install-db "${RUN_AS[@]}" --datadir="$DATA" --auth-root-authentication-method=socket \
        --skip-test-db >&2
fi

if ! client -e "SELECT 1" >/dev/null 2>&1; then
    log "starting on 127.0.0.1:$PORT"
    "$MARIADBD" "${RUN_AS[@]}" --datadir="$DATA" --socket="$SOCKET" --port="$PORT" --bind-address=127.0.0.1 \
        --pid-file="$DATA/mysqld.pid" --log-error="$DATA/server.log" --skip-name-resolve \
        --innodb-flush-log-at-trx-commit=0 --max-connections=200 >/dev/null 2>&1 &
    for _ in $(seq 1 120); do
        client -e "SELECT 1" >/dev/null 2>&1 && break
        sleep 0.5
    done
    client -e "SELECT 1" >/dev/null || { log "MariaDB did not start: see $DATA/server.log"; exit 1; }
fi

client -e "CREATE DATABASE IF NOT EXISTS \`$DB_NAME\`;
CREATE USER IF NOT EXISTS '$USER_NAME'@'127.0.0.1' IDENTIFIED BY '$PASSWORD';
CREATE USER IF NOT EXISTS '$USER_NAME'@'localhost' IDENTIFIED BY '$PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$USER_NAME'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$USER_NAME'@'localhost';
FLUSH PRIVILEGES;" >&2

echo "mysql://$USER_NAME:$PASSWORD@127.0.0.1:$PORT/$DB_NAME"
