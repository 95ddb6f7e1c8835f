"""``GET /api/v1/credentials/schema/{credentialTypeName}``: the JSON schema of a credential type's data.

The schemas are n8n 2.41.1's answers (its ``toJsonSchema`` over the credential's properties), kept in
``credential_schemas.json`` for the credential types Weft's database and API nodes use and the HTTP auth types;
any other type is ``404 Not Found``, as n8n answers for a type it does not know. Any valid API key may ask (n8n
checks no scope here).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from fastapi import APIRouter

from weft.server.routes.public_api import PublicApiError

router = APIRouter(tags=["public API"])


@cache
def schemas() -> dict[str, Any]:
    """``{credential type: JSON schema}``."""
    data: dict[str, Any] = json.loads((Path(__file__).parent / "credential_schemas.json").read_text())
    return data


@router.get("/credentials/schema/{credential_type}")
async def credential_schema(credential_type: str) -> dict[str, Any]:
    schema = schemas().get(credential_type)
    if schema is None:
        raise PublicApiError(404, "Not Found")
    return dict(schema)


__all__ = ["credential_schema", "router", "schemas"]
