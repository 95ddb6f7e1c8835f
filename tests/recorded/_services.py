"""Credentials of the cases that talk to a real server (PostgreSQL, MySQL, Redis): a ``uses_services`` file in the
case folder names the credential types; each is pointed at the test server of :mod:`weft.testing.service_servers`.
Without that server the case skips (fails under ``CI=true``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from weft.testing.service_servers import ServiceMissing, in_ci, service_credential


def service_credentials(folder: Path) -> dict[str, Any]:
    """``{credential type: data}`` for the case in ``folder`` (empty for a case without ``uses_services``)."""
    path = folder / "uses_services"
    if not path.exists():
        return {}
    credentials: dict[str, Any] = {}
    for credential_type in path.read_text().split():
        try:
            credentials[credential_type] = service_credential(credential_type)
        except ServiceMissing as missing:
            if in_ci():
                pytest.fail(str(missing))
            pytest.skip(str(missing))
    return credentials
