"""Redis (``n8n-nodes-base.redis`` v1): Delete, Get, Increment, Info, Keys, List Length, Pop, Publish, Push and
Set on a Redis server through the ``redis`` credential (redis-py's asyncio client).

As n8n: Get and Pop output ``{propertyName: value}`` (dot notation unless ``options.dotNotation`` is false), Keys
outputs every matching key's value (or ``{keys}``), Set picks the type from the value when ``keyType`` is
``automatic``, and errors carry the server's words (``ERR …``, ``WRONGTYPE …``). Where n8n retries a refused
connection ten times over minutes, Weft fails at once with the same message.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError, WeftError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.paths import set_path
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

CREDENTIAL_DEFAULTS: dict[str, Any] = {"host": "localhost", "port": 6379, "database": 0, "ssl": False}
_ITEM_OPERATIONS = ("delete", "get", "keys", "llen", "set", "incr", "publish", "push", "pop")


UNDEFINED: Any = object()
"""What n8n's ``getValue`` gives for a type it does not read (``set``, ``zset``, ``stream``, a missing key)."""


class RedisFailure(WeftError):
    """A command or connection failed; ``str()`` is node-redis's message."""


class Redis(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.redis",
        display_name="Redis",
        versions=(1,),
        description="Get, send and update data in Redis",
        group=("input",),
        usable_as_tool=True,
        credentials=("redis",),
        defaults={
            "operation": "info",
            "key": "",
            "propertyName": "propertyName",
            "keyType": "automatic",
            "options": {},
            "expire": False,
            "ttl": 60,
            "keyPattern": "",
            "getValues": True,
            "list": "",
            "value": "",
            "valueIsJSON": True,
            "channel": "",
            "messageData": "",
            "tail": False,
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        client = _client(await ctx.get_credentials("redis"))
        try:
            await _call(client.ping())
            operation = ctx.get_node_parameter("operation", 0, "info")
            if operation == "info":
                return [[await _info(ctx, client)]]
            if operation not in _ITEM_OPERATIONS:
                raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
            return [await _each_item(ctx, client, operation)]
        except RedisFailure as failure:
            raise NodeOperationError(ctx.node.name, str(failure)) from failure
        finally:
            await client.aclose()


def _client(credentials: dict[str, Any]) -> Any:
    import redis.asyncio as redis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    data = {**CREDENTIAL_DEFAULTS, **{k: v for k, v in credentials.items() if v not in (None, "")}}
    kwargs: dict[str, Any] = {
        "host": str(data["host"]),
        "port": int(data["port"]),
        "db": int(data.get("database") or 0),
        "password": data.get("password"),
        "username": data.get("user"),
        "decode_responses": True,
        "socket_connect_timeout": 10,
        "retry": Retry(NoBackoff(), 0),  # fail at once (n8n retries for minutes)
    }
    if data.get("ssl") is True:
        kwargs["ssl"] = True
        if data.get("disableTlsVerification") is True:
            kwargs["ssl_cert_reqs"] = "none"
    client = redis.Redis(**kwargs)
    for command in ("INFO", "SMEMBERS"):  # INFO's text (parsed as n8n parses it), members in the server's order
        client.response_callbacks.pop(command, None)
    return client


async def _call(awaitable: Any) -> Any:
    """Await a redis-py call; its errors as node-redis words them."""
    import redis.exceptions as errors

    try:
        return await awaitable
    except errors.AuthenticationError as error:
        raise RedisFailure(f"WRONGPASS {error}") from error
    except errors.ResponseError as error:
        text = str(error)
        raise RedisFailure(text if re.match(r"^[A-Z]{3,}\b", text) else f"ERR {text}") from error
    except (errors.ConnectionError, errors.TimeoutError, OSError) as error:
        refused = re.search(r"connecting to ([^ ]+)\.", str(error))
        if refused and "111" in str(error):
            raise RedisFailure(f"connect ECONNREFUSED {refused.group(1)}") from error
        raise RedisFailure(str(error)) from error


async def _info(ctx: ExecuteContext, client: Any) -> Item:
    try:
        text = await _call(client.execute_command("INFO"))
    except RedisFailure as failure:
        if ctx.continue_on_fail():
            return {"json": {"error": str(failure)}}
        raise
    return {"json": info_to_object(js_string(text))}


def _parsed(value: str) -> Any:
    if not re.fullmatch(r"[\d.]+", value):
        return value
    match = re.match(r"\d*\.?\d*", value)
    number = float(match.group(0)) if match and match.group(0) not in ("", ".") else float("nan")
    return int(number) if number == number and number.is_integer() else number


def info_to_object(text: str) -> dict[str, Any]:
    """n8n's ``convertInfoToObject``: ``key:value`` lines; ``a=1,b=2`` values become objects; numbers parsed."""
    out: dict[str, Any] = {}
    for line in text.split("\n"):
        if line[:1] in ("#", ""):
            continue
        parts = line.split(":")
        if len(parts) < 2:
            continue
        key, value = parts[0], parts[1].strip()
        if "=" in value:
            out[key] = {}
            for pair in value.split(","):
                sub = pair.split("=")
                out[key][sub[0]] = _parsed(sub[1]) if len(sub) > 1 else None
        else:
            out[key] = _parsed(value)
    return out


async def _each_item(ctx: ExecuteContext, client: Any, operation: str) -> list[Item]:
    out: list[Item] = []
    for index, item in enumerate(ctx.get_input_data()):
        try:
            out.extend(await _one(ctx, client, operation, index, item))
        except (RedisFailure, NodeError) as failure:
            if ctx.continue_on_fail():
                message = failure.message if isinstance(failure, NodeError) else str(failure)
                out.append({"json": {"error": message}, "pairedItem": {"item": index}})
                continue
            if isinstance(failure, NodeError):
                raise
            raise NodeOperationError(ctx.node.name, str(failure), item_index=index) from failure
    return out


def _put(ctx: ExecuteContext, index: int, data: dict[str, Any], name: str, value: Any) -> None:
    if (ctx.get_node_parameter("options", index, {}) or {}).get("dotNotation") is False:
        data[name] = value
    else:
        set_path(data, name, value)


async def _one(ctx: ExecuteContext, client: Any, operation: str, index: int, item: Item) -> list[Item]:
    param = ctx.get_node_parameter
    new: Item = {"json": {}, "pairedItem": {"item": index}}
    if operation in ("delete", "set", "publish", "push"):
        await _write(ctx, client, operation, index)
        return [item]
    if operation == "get":
        value = await get_value(client, js_string(param("key", index)), param("keyType", index, "automatic"))
        value = None if value is UNDEFINED else value  # n8n: `?? null`
        _put(ctx, index, new["json"], js_string(param("propertyName", index, "propertyName")), value)
        return [new]
    if operation == "keys":
        keys = await _call(client.keys(js_string(param("keyPattern", index))))
        if not param("getValues", index, True):
            return [{"json": {"keys": keys}}]
        for key in keys:
            value = await get_value(client, key)
            if value is not UNDEFINED:  # a set or stream: n8n's undefined, which JSON drops
                new["json"][key] = value
        return [new]
    if operation == "llen":
        name = js_string(param("list", index))
        return [{"json": {name: await _call(client.llen(name))}, "pairedItem": {"item": index}}]
    if operation == "incr":
        key = js_string(param("key", index))
        value = await _call(client.incr(key))
        ttl = param("ttl", index, -1)
        if param("expire", index, False) and isinstance(ttl, int | float) and ttl > 0:
            await _call(client.expire(key, int(ttl)))
        return [{"json": {key: value}}]
    return [await _pop(ctx, client, index, new)]


async def _pop(ctx: ExecuteContext, client: Any, index: int, new: Item) -> Item:
    name = js_string(ctx.get_node_parameter("list", index))
    tail = ctx.get_node_parameter("tail", index, False)
    value = await _call(client.rpop(name) if tail else client.lpop(name))
    try:
        output = json.loads(value) if value else value
    except ValueError:
        output = value
    _put(ctx, index, new["json"], js_string(ctx.get_node_parameter("propertyName", index, "propertyName")), output)
    return new


async def _write(ctx: ExecuteContext, client: Any, operation: str, index: int) -> None:
    param = ctx.get_node_parameter
    if operation == "delete":
        await _call(client.delete(js_string(param("key", index))))
    elif operation == "publish":
        await _call(client.publish(js_string(param("channel", index)), js_string(param("messageData", index))))
    elif operation == "push":
        name, data = js_string(param("list", index)), js_string(param("messageData", index))
        await _call(client.rpush(name, data) if param("tail", index, False) else client.lpush(name, data))
    else:
        await set_value(
            ctx,
            client,
            js_string(param("key", index)),
            param("value", index, ""),
            param("keyType", index, "automatic"),
            bool(param("valueIsJSON", index, True)),
        )
        if param("expire", index, False):
            await _call(client.expire(js_string(param("key", index)), int(param("ttl", index, -1))))


async def get_value(client: Any, key: str, key_type: str | None = None) -> Any:
    """n8n's ``getValue``: by the key's type (``automatic`` asks the server: a set is ``set``, not n8n's ``sets``,
    so it gives :data:`UNDEFINED`, as in n8n)."""
    if key_type in (None, "automatic"):
        key_type = await _call(client.type(key))
    if key_type == "string":
        return await _call(client.get(key))
    if key_type == "hash":
        return await _call(client.hgetall(key))
    if key_type == "list":
        return await _call(client.lrange(key, 0, -1))
    if key_type == "sets":
        return list(await _call(client.execute_command("SMEMBERS", key)))
    return UNDEFINED


async def set_value(ctx: ExecuteContext, client: Any, key: str, value: Any, key_type: str, value_is_json: bool) -> None:
    """n8n's ``setValue``."""
    if key_type in (None, "automatic"):
        key_type = _type_of(ctx, value)
    if key_type == "string":
        await _call(client.set(key, js_string(value)))
    elif key_type == "hash":
        await _set_hash(client, key, value, value_is_json)
    elif key_type == "list":  # n8n's LSET: the list must already hold that many elements
        for position, element in enumerate(value):
            await _call(client.lset(key, position, js_string(element)))
    elif key_type == "sets":
        await _call(client.sadd(key, *(value if isinstance(value, list) else [js_string(value)])))


def _type_of(ctx: ExecuteContext, value: Any) -> str:
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "hash"
    raise NodeOperationError(ctx.node.name, "Could not identify the type to set. Please set it manually!")


async def _set_hash(client: Any, key: str, value: Any, value_is_json: bool) -> None:
    if value_is_json:
        values = value
        if isinstance(value, str):
            try:
                values = json.loads(value)
            except ValueError:
                values = value
        for field in values if isinstance(values, dict) else {}:
            await _call(client.hset(key, field, js_string(values[field])))
        return
    words = js_string(value).split(" ")
    if len(words) % 2:
        raise RedisFailure("ERR wrong number of arguments for 'hset' command")
    await _call(client.hset(key, mapping=dict(zip(words[::2], words[1::2], strict=True))))


__all__ = ["Redis", "get_value", "info_to_object", "set_value"]
