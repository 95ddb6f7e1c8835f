"""``/rest/credential-types``: the credential types Weft knows, for the editor's credential forms.

Each is n8n's description (n8n's editor loads the same from ``/types/credentials.json``): ``name``,
``displayName``, ``documentationUrl``, ``properties`` (those of the types it ``extends`` merged in), ``extends``,
``genericAuth``, n8n's declarative ``test`` request where it has one, and ``testable``: whether Weft can run
that test (``POST /rest/credentials/test``). Behind the login like every ``/rest`` route.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from weft.db.base import NotFoundError
from weft.server.schemas import Envelope
from weft.services.credential_test import is_testable
from weft.services.credential_types import credential_type, credential_types, public_description

router = APIRouter(prefix="/credential-types", tags=["credentials"])


def describe(name: str) -> dict[str, Any]:
    """One type as the editor gets it."""
    return {**public_description(name), "testable": is_testable(name)}


@router.get("", summary="The credential types Weft knows, with their properties")
async def list_credential_types() -> Envelope[list[dict[str, Any]]]:
    found = [describe(name) for name in credential_types()]
    return Envelope(data=sorted(found, key=lambda t: str(t.get("displayName", t["name"])).lower()))


@router.get("/{name}", summary="One credential type")
async def get_credential_type(name: str) -> Envelope[dict[str, Any]]:
    if credential_type(name) is None:
        raise NotFoundError(f"Credential type {name!r} is not known.", credential_type=name)
    return Envelope(data=describe(name))
