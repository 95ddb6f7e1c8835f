"""n8n's Discord v2 transport: :func:`discord_api_request` (``https://discord.com/api/v10<endpoint>``, or the
webhook URL of a ``discordWebhookApi`` credential), retried on a 429 after its ``Retry-After`` (at most three
times, each wait at most 60 s), and :func:`parse_discord_error`, which words a failed request as n8n does (the
message of Discord's error body, n8n's words for bad embeds and an unknown message to reply to)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.nodes.api import ApiRequests

DISCORD_API = "https://discord.com/api/v10"
CREDENTIALS = {"botToken": "discordBotApi", "oAuth2": "discordOAuth2Api", "webhook": "discordWebhookApi"}
MAX_RETRIES = 3
_ALL_BUT_429 = [status for status in range(100, 600) if status != 429]
Sleep = Callable[[float], Awaitable[None]]


async def pause(seconds: float) -> None:
    """How the transport waits (a module function, so tests can replace it)."""
    await asyncio.sleep(seconds)


def credential_type(authentication: Any) -> str:
    """n8n's ``getCredentialsType``."""
    return CREDENTIALS.get(str(authentication), "discordBotApi")


def _seconds(value: Any) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 0.0
    return min(seconds, 60.0) if seconds > 0 else 0.0


async def discord_api_request(
    api: ApiRequests,
    method: str,
    endpoint: str,
    body: Any = None,
    qs: Mapping[str, Any] | None = None,
    *,
    headers: Mapping[str, str] | None = None,
    item_index: int = 0,
    sleep: Sleep | None = None,
) -> Any:
    """n8n's ``discordApiRequest``: the answer's body, or ``{success: true}`` for an empty one (a 204). ``sleep``
    waits (seconds): :func:`pause` unless given."""
    sleep = sleep or pause
    kind = credential_type(api.ctx.get_node_parameter("authentication", 0, "webhook"))
    options: dict[str, Any] = {"method": method, "url": f"{DISCORD_API}{endpoint}", "json": True,
                               "headers": dict(headers or {}), "returnFullResponse": True}  # fmt: skip
    if body is not None:
        options["body"] = body
    if qs:
        options["qs"] = dict(qs)
    signed_by: str | None = kind
    if kind == "discordWebhookApi":
        options["url"] = str((await api.credential(kind)).data.get("webhookUri") or "")
    elif kind == "discordOAuth2Api" and endpoint != "/users/@me/guilds":
        options["headers"]["Authorization"] = f"Bot {(await api.credential(kind)).data.get('botToken')}"
        signed_by = None
    for attempt in range(MAX_RETRIES + 1):
        # a 429 answers (to be retried) but the last; any other error status raises
        options["ignoreHttpStatusErrors"] = {"except": _ALL_BUT_429} if attempt < MAX_RETRIES else False
        response = await api.request(signed_by, options, item_index)
        if response["statusCode"] != 429:
            break
        after = {str(k).lower(): v for k, v in (response.get("headers") or {}).items()}.get("retry-after")
        await sleep(_seconds(after) or 1.0)
    await _rate_limit_pause(response.get("headers") or {}, sleep)
    return response["body"] or {"success": True}


async def _rate_limit_pause(headers: Mapping[str, Any], sleep: Sleep) -> None:
    """n8n's ``handleRateLimitHeaders``: wait out an exhausted bucket, else 20 ms (Discord's global limit)."""
    lower = {str(k).lower(): v for k, v in headers.items()}
    remaining = lower.get("x-ratelimit-remaining")
    if remaining is not None and _number(remaining) == 0:
        await sleep(_seconds(lower.get("x-ratelimit-reset-after")))
    else:
        await sleep(0.02)


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def parse_discord_error(node_name: str, error: NodeError, item_index: int = 0) -> NodeOperationError:
    """n8n's ``parseDiscordError``: the error as the node reports it."""
    body = getattr(error, "body", None)
    data: dict[str, Any] = body if isinstance(body, dict) else {}
    message = error.message
    description = error.description
    if data:  # n8n words the error from Discord's body alone: no description but its own hints
        description = None
    if data and data.get("message"):
        message = str(data["message"])
    if data and "bad request" in error.message.lower():
        given = data.get("errors")
        errors: dict[str, Any] = given if isinstance(given, dict) else {}
        embeds = errors.get("embeds")
        if isinstance(embeds, dict | list) and embeds:
            first = embeds[0] if isinstance(embeds, list) else embeds.get("0", {})
            keys = [key[:1].upper() + key[1:] for key in (first or {})]
            if keys:
                message = (
                    f"The parameter {keys[0]} is not properly formatted"
                    if len(keys) == 1
                    else f"The parameters {', '.join(keys)} are not properly formatted"
                )
                description = "Review the formatting or clear it"
        elif errors.get("message_reference"):
            message = "The message to reply to ID can't be found"
            description = ("Check the \"Message to Reply to\" parameter and remove it if you don't want to reply to an "
                           "existing message")  # fmt: skip
        elif message == "Cannot send an empty message":
            description = "Something has to be send to the channel whether it is a message, an embed or a file"
    return NodeOperationError(node_name, message, description=description, item_index=item_index)


def error_item(error: NodeError, index: int) -> dict[str, Any]:
    """n8n's ``prepareErrorData``: ``{error, description}`` (the description parsed when it is JSON)."""
    import json

    description: Any = error.description
    if isinstance(description, str):
        try:
            description = json.loads(description)
        except ValueError:
            pass
    json_data: dict[str, Any] = {"error": error.message}
    if description is not None:
        json_data["description"] = description
    return {"json": json_data, "pairedItem": {"item": index}}
