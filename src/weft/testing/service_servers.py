"""Test servers of the database nodes (PostgreSQL, MariaDB/MySQL, Redis), found through environment variables.

``bash scripts/start_postgres.sh`` / ``start_mariadb.sh`` / ``start_redis.sh`` start one and print the URL for
``WEFT_TEST_DATABASE_URL`` / ``WEFT_TEST_MYSQL_URL`` / ``WEFT_TEST_REDIS_URL``. :func:`service_credential` turns
a URL into the n8n credential (``postgres``, ``mySql``, ``redis``); a test without its server skips, saying
which script starts it, except under ``CI=true``, where CI starts them (``scripts/test``) and a missing one fails.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlsplit

#: credential type → (environment variable, script that starts the server)
SERVICES: dict[str, tuple[str, str]] = {
    "postgres": ("WEFT_TEST_DATABASE_URL", "scripts/start_postgres.sh"),
    "mySql": ("WEFT_TEST_MYSQL_URL", "scripts/start_mariadb.sh"),
    "redis": ("WEFT_TEST_REDIS_URL", "scripts/start_redis.sh"),
}


class ServiceMissing(Exception):
    """The server of a credential type is not configured (the message says how to start it)."""


def service_url(credential_type: str) -> str:
    """The test server's URL for ``credential_type``, or :class:`ServiceMissing`."""
    variable, script = SERVICES[credential_type]
    url = os.environ.get(variable, "")
    if not url:
        raise ServiceMissing(f"{variable} is not set: start a test server with `{variable}=$(bash {script})`")
    return url


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


#: Credentials that need no server: the n8n API node's recorded cases talk to a port nothing listens on.
STATIC: dict[str, dict[str, Any]] = {
    "n8nApi": {"apiKey": "n8n-api-key-acceptance", "baseUrl": "http://127.0.0.1:1/api/v1"}
}


def service_credential(credential_type: str) -> dict[str, Any]:
    """The n8n credential data pointing at the test server of ``credential_type``."""
    if credential_type in STATIC:
        return dict(STATIC[credential_type])
    url = urlsplit(service_url(credential_type))
    user, password = unquote(url.username or ""), unquote(url.password or "")
    path = url.path.lstrip("/")
    if credential_type == "postgres":
        return {
            "host": url.hostname,
            "port": url.port or 5432,
            "database": path,
            "user": user,
            "password": password,
            "ssl": "disable",
        }
    if credential_type == "mySql":
        return {
            "host": url.hostname,
            "port": url.port or 3306,
            "database": path,
            "user": user,
            "password": password,
            "connectTimeout": 10000,
            "ssl": False,
        }
    return {
        "host": url.hostname,
        "port": url.port or 6379,
        "password": password,
        "user": user,
        "database": int(path or 0),
        "ssl": False,
    }


__all__ = ["SERVICES", "STATIC", "ServiceMissing", "in_ci", "service_credential", "service_url"]
