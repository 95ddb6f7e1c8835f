"""Message attachments as n8n's "Post" sends them: its form's nesting (``fields.item``, ``actions.item``,
``options.option``, ``integration.item.context.property``) lifted into the shapes Mattermost expects."""

from __future__ import annotations

import copy
from typing import Any

from weft.errors import NodeOperationError


def _lift(attachment: dict[str, Any], key: str) -> None:
    """``{key: {item: [...]}}`` becomes ``{key: [...]}``; a key without items is dropped."""
    if key not in attachment:
        return
    value = attachment[key]
    if isinstance(value, dict) and value.get("item") is not None:
        attachment[key] = value["item"]
    else:
        del attachment[key]


def _truthy(value: Any) -> bool:
    return isinstance(value, dict | list) or bool(value)


def _action(node: str, action: dict[str, Any], index: int) -> None:
    if action.get("type") == "button":
        del action["type"]
    if action.get("data_source") == "custom":
        del action["data_source"]
    if _truthy(action.get("options")):  # JavaScript's truth: an empty ``{}`` counts, its missing ``option`` drops
        options = action["options"]
        option = options.get("option") if isinstance(options, dict) else None
        if option is None:
            del action["options"]
        else:
            action["options"] = option
    integration = action.get("integration")
    if not isinstance(integration, dict):
        raise NodeOperationError(node, "Cannot read properties of undefined (reading 'item')", item_index=index)
    if integration.get("item") is not None:
        lifted = integration["item"]
        action["integration"] = lifted
        context = lifted.get("context") if isinstance(lifted, dict) else None
        if context is None:  # n8n reads ``context.property`` of an integration without context
            raise NodeOperationError(node, "Cannot read properties of undefined (reading 'property')", item_index=index)
        properties = context.get("property") if isinstance(context, dict) else None
        if isinstance(properties, list):
            lifted["context"] = {p.get("name"): p.get("value") for p in properties if isinstance(p, dict)}


def prepared(node: str, attachments: Any, index: int) -> list[Any]:
    """The attachments to send (a copy: the node's parameters stay as they were)."""
    rows = copy.deepcopy(attachments) if isinstance(attachments, list) else []
    for key in ("fields", "actions"):
        for attachment in rows:
            if isinstance(attachment, dict):
                _lift(attachment, key)
    for attachment in rows:
        actions = attachment.get("actions") if isinstance(attachment, dict) else None
        if isinstance(actions, list):
            for action in actions:
                if isinstance(action, dict):
                    _action(node, action, index)
    return rows
