"""The credential types Weft knows: n8n's own descriptions, kept in ``credential_types.json`` (here, in the node
layer, because declarative nodes read their types' ``authenticate`` recipes; ``weft.services.credential_types``
re-exports this module for the use cases).

``scripts/export_credential_types.py`` writes the file from n8n's ``dist/types/credentials.json``: every type a
registered node uses, every generic-auth type and the types they extend, each with its ``properties`` (n8n's
domain restriction fields injected as n8n's loader does), its declarative ``test`` request where n8n has one,
and, for a few, the JSON schema n8n's public API answers (``jsonSchema``).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any


@cache
def credential_types() -> dict[str, dict[str, Any]]:
    """``{type name: n8n's description}``."""
    data: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "credential_types.json").read_text())
    return data


def credential_type(name: str) -> dict[str, Any] | None:
    """One type's description, or ``None`` for a type Weft does not know."""
    return credential_types().get(name)


def type_properties(name: str) -> list[dict[str, Any]] | None:
    """A type's properties with those of the types it extends (n8n's ``getExtendedProps``: the type's own win
    over its parents'); ``None`` for an unknown type."""
    found = credential_type(name)
    if found is None:
        return None
    merged: dict[str, dict[str, Any]] = {}
    for parent in found.get("extends") or []:
        for prop in type_properties(parent) or []:
            merged[prop["name"]] = prop
    for prop in found.get("properties") or []:
        merged[prop["name"]] = prop
    return list(merged.values())


def json_schema(name: str) -> dict[str, Any] | None:
    """The JSON schema of a type's data that n8n's public API answers (for the types it was recorded for)."""
    schema = (credential_type(name) or {}).get("jsonSchema")
    return dict(schema) if isinstance(schema, dict) else None


def public_description(name: str) -> dict[str, Any]:
    """What the editor gets of a type (n8n's ``/types/credentials.json`` entry, ``authenticate`` included: its
    recipe holds expressions, never a secret); not the public API's JSON schema."""
    found = credential_type(name) or {}
    described = {k: v for k, v in found.items() if k not in ("jsonSchema", "preAuthentication")}
    if isinstance(described.get("authenticate"), dict) and "$function" in described["authenticate"]:
        described["authenticate"] = {}  # a function, which n8n's JSON gives as {} (the marker is Weft's)
    described["properties"] = type_properties(name) or []
    return described


__all__ = ["credential_type", "credential_types", "json_schema", "public_description", "type_properties"]
