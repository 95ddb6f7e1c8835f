#!/usr/bin/env bash
# Start a throwaway Redis server for Weft's Redis node tests and print its URL on stdout.
#
#   url=$(bash scripts/start_redis.sh)   # e.g. redis://:weft@127.0.0.1:63799/0
#   WEFT_TEST_REDIS_URL=$url .venv/bin/python -m pytest tests/nodes/test_redis*.py -q
#   bash scripts/start_redis.sh stop     # stop it
#
# Idempotent: installs Redis with apt-get when it is missing (as root) and starts a server on 127.0.0.1 only,
# with a password, no persistence, its files in a temporary folder. Everything but the URL goes to stderr.
# Settings: WEFT_REDIS_PORT (63799), WEFT_REDIS_DATA (/tmp/weft-redis), WEFT_REDIS_PASSWORD (weft).
set -euo pipefail

PORT="${WEFT_REDIS_PORT:-63799}"
DATA="${WEFT_REDIS_DATA:-/tmp/weft-redis}"
PASSWORD="${WEFT_REDIS_PASSWORD:-weft}"

log() { echo "start_redis: $*" >&2; }

if ! command -v redis-server >/dev/null 2>&1; then
    if [[ "$(id -u)" != 0 ]]; then
        log "Redis is not installed and this is not root: install the 'redis-server' package first."
        exit 1
    fi
    log "installing Redis with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq redis-server >&2
fi

ping() { REDISCLI_AUTH="$PASSWORD" redis-cli -h 127.0.0.1 -p "$PORT" ping 2>/dev/null | grep -q PONG; }

if [[ "${1:-}" == "stop" ]]; then
    REDISCLI_AUTH="$PASSWORD" redis-cli -h 127.0.0.1 -p "$PORT" shutdown nosave >&2 2>/dev/null || true
    exit 0
fi

if ! ping; then
    mkdir -p "$DATA"
    log "starting on 127.0.0.1:$PORT"
    redis-server --bind 127.0.0.1 --port "$PORT" --requirepass "$PASSWORD" --dir "$DATA" --save "" \
        --appendonly no --daemonize yes --logfile "$DATA/server.log" --pidfile "$DATA/redis.pid" >&2
    for _ in $(seq 1 60); do
        ping && break
        sleep 0.25
    done
    ping || { log "Redis did not start: see $DATA/server.log"; exit 1; }
fi

echo "redis://:$PASSWORD@127.0.0.1:$PORT/0"
