"""Extract from File's ``fromIcs``: n8n parses the calendar with ts-ics (``icsCalendarToObject``). Weft does not
parse ICS yet and says so with an error that names the operation."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError


def parse_ics(node_name: str, text: str) -> Any:
    """Refuse: the ts-ics object shape is not implemented (reported to the lead)."""
    raise NodeOperationError(
        node_name,
        "Extracting ICS calendars is not supported by Weft yet",
        description="Use the 'Extract From Text File' operation and parse the calendar in a Code node.",
    )


__all__ = ["parse_ics"]
