"""Each HubSpot operation as n8n's ``HubspotV2.execute`` runs it for one item: the request(s) and the answer
(an object, a list, or ``None`` for an empty answer). ``qs`` is shared by the run's items, as in n8n.

The handlers live one resource a module (:mod:`.contacts`, :mod:`.companies`, :mod:`.deals`,
:mod:`.engagements`, :mod:`.tickets`; shared list/delete/search in :mod:`.common`); this module is their table."""

from __future__ import annotations

from weft.errors import NodeOperationError
from weft.library.hubspot.companies import COMPANY_OPERATIONS
from weft.library.hubspot.contacts import CONTACT_OPERATIONS
from weft.library.hubspot.deals import DEAL_OPERATIONS
from weft.library.hubspot.engagements import ENGAGEMENT_OPERATIONS
from weft.library.hubspot.op import Handler, Op
from weft.library.hubspot.tickets import TICKET_OPERATIONS

OPERATIONS: dict[str, dict[str, Handler]] = {
    "contact": CONTACT_OPERATIONS,
    "company": COMPANY_OPERATIONS,
    "deal": DEAL_OPERATIONS,
    "engagement": ENGAGEMENT_OPERATIONS,
    "ticket": TICKET_OPERATIONS,
}


def operation(node: str, resource: str, name: str) -> Handler:
    """The handler of ``resource``/``name``, or a typed error naming what Weft lacks."""
    found = OPERATIONS.get(resource, {}).get(name)
    if found is None:
        raise NodeOperationError(
            node,
            f'The operation "{name}" of the resource "{resource}" is not supported by Weft yet',
            description="Use an HTTP Request node with the HubSpot credential for this operation.",
        )
    return found


__all__ = ["OPERATIONS", "Op", "operation"]
