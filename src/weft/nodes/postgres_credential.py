"""How a ``postgres`` credential becomes psycopg's connection arguments: for the Postgres node and for any other
node that connects with that credential (the PGVector store)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The ``postgres`` credential's defaults (n8n's ``Postgres.credentials``).
CREDENTIAL_DEFAULTS: dict[str, Any] = {
    "host": "localhost",
    "database": "postgres",
    "user": "postgres",
    "password": "",
    "port": 5432,
    "ssl": "disable",
    "allowUnauthorizedCerts": False,
    "maxConnections": 100,
}
_SSL_MODES = {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}


def connection_kwargs(credentials: Mapping[str, Any], timeout_s: float | None = None) -> dict[str, Any]:
    """psycopg's connection arguments for a ``postgres`` credential (its defaults filled in)."""
    data = {**CREDENTIAL_DEFAULTS, **{k: v for k, v in credentials.items() if v is not None}}
    if data.get("sshTunnel") is True:
        raise ValueError(
            "The credential asks for an SSH tunnel, which Weft does not open: run the tunnel yourself "
            "(ssh -L) and point the credential's host and port at it"
        )
    ssl = str(data.get("ssl") or "disable")
    if ssl not in _SSL_MODES:
        raise ValueError(f"Unknown SSL mode {ssl!r}: use one of {', '.join(sorted(_SSL_MODES))}")
    kwargs: dict[str, Any] = {
        "host": str(data["host"]),
        "port": int(data["port"]),
        "dbname": str(data["database"]),
        "user": str(data["user"]),
        "password": str(data["password"]),
        "sslmode": "require" if data.get("allowUnauthorizedCerts") is True else ssl,
        "autocommit": True,
        "application_name": "weft",
    }
    if timeout_s:
        kwargs["connect_timeout"] = max(1, int(timeout_s))
    return kwargs


__all__ = ["CREDENTIAL_DEFAULTS", "connection_kwargs"]
