"""Debug Helper (``n8n-nodes-base.debugHelper`` v1): does nothing, throws an error, "runs out of memory", or
generates random data (recorded: n480-n484).

- Do Nothing outputs no items (n8n's node pushes nothing).
- Throw Error throws a ``NodeApiError``, ``NodeOperationError`` or plain error with the message, once per item
  (with continue-on-fail each item gets ``{error: message}``). An unknown error type falls through to the
  out-of-memory branch, as in n8n's ``switch``.
- Out Of Memory: n8n allocates ``memorySizeValue`` MB and outputs ``process.memoryUsage()``. Weft allocates
  nothing: it outputs the process's memory figures under n8n's keys, and for a size above
  :data:`MEMORY_LIMIT_MB` fails with the error n8n gives a node whose process crashed ("Node crashed, possible
  out-of-memory issue"), instead of taking the worker down (documented in ``docs/differences.md``).
- Generate Random Data: n8n's shapes (user, email, address, credit card, UUID, nanoid, MAC, IPv4/6,
  coordinates, semver, URL); the values are random, a seed makes them repeat, but not n8n's (minifaker's) values.
"""

from __future__ import annotations

import random
import resource
import string
import uuid
from collections.abc import Callable
from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

#: Above this many MB, "Out Of Memory" fails as n8n's crashed node does.
MEMORY_LIMIT_MB = 512
_FIRST = ("Ada", "Bob", "Carla", "Dewey", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jon", "Latoya", "Mia")
_LAST = ("Botsford", "Turcotte", "Smith", "Kuhn", "Lind", "Ortiz", "Schmidt", "Walker", "Young", "Zieme")
_CITIES = ("Hackensack", "Springfield", "Riverside", "Fairview", "Madison", "Georgetown", "Salem", "Clinton")
_STATES = ("Massachusetts", "Ohio", "Texas", "Oregon", "Nevada", "Vermont", "Iowa", "Maine", "Utah")
_COUNTRIES = ("Liechtenstein", "Germany", "France", "Japan", "Brazil", "Kenya", "Canada", "Norway", "Peru")
_STREETS = ("Squares", "Street", "Avenue", "Road", "Lane", "Drive", "Court", "Way")
_DOMAINS = ("gmail.com", "yahoo.com", "hotmail.com")
_TLDS = ("com", "net", "org", "name", "info", "biz")


class DebugHelper(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.debugHelper",
        display_name="DebugHelper",
        versions=(1,),
        description="Causes problems intentionally and generates useful data for debugging",
        group=("output",),
        defaults={
            "category": "throwError",
            "throwErrorType": "NodeApiError",
            "throwErrorMessage": "Node has thrown an error",
            "memorySizeValue": 10,
            "randomDataType": "user",
            "nanoidAlphabet": "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "nanoidLength": "16",
            "randomDataSeed": "",
            "randomDataCount": 10,
            "randomDataSingleArray": False,
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        category = ctx.get_node_parameter("category", 0)
        out: list[Item] = []
        for index, item in enumerate(items):
            try:
                if category == "throwError":
                    _throw(ctx)
                    out.append(_out_of_memory(ctx, item))  # an unknown error type falls through, as in n8n
                elif category == "oom":
                    out.append(_out_of_memory(ctx, item))
                elif category == "randomData":
                    out.extend(_random_items(ctx, index))
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
        return [out]


def _throw(ctx: ExecuteContext) -> None:
    kind = ctx.get_node_parameter("throwErrorType", 0)
    message = str(ctx.get_node_parameter("throwErrorMessage", 0))
    fix = "This node throws on purpose: set 'Category' to something else to let items through."
    if kind == "NodeApiError":
        raise NodeApiError(ctx.node.name, message, description=fix)
    if kind == "NodeOperationError":
        raise NodeOperationError(ctx.node.name, message, description=fix)
    if kind == "Error":
        raise NodeOperationError(ctx.node.name, message, description=fix)


def _out_of_memory(ctx: ExecuteContext, item: Item) -> Item:
    size = float(ctx.get_node_parameter("memorySizeValue", 0))
    if size > MEMORY_LIMIT_MB:
        raise NodeOperationError(
            ctx.node.name,
            "Node crashed, possible out-of-memory issue",
            description=(
                f"Weft does not allocate the {size:g} MB asked for (above {MEMORY_LIMIT_MB} MB it stops here, as"
                " n8n stops a node whose process ran out of memory). Ask for less memory."
            ),
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    heap = max(int(size * 1024 * 1024), 1)
    item["json"] = {"rss": rss, "heapTotal": heap, "heapUsed": heap, "external": 0, "arrayBuffers": 0}
    return item


def _random_items(ctx: ExecuteContext, index: int) -> list[Item]:
    kind = ctx.get_node_parameter("randomDataType", 0)
    count = int(ctx.get_node_parameter("randomDataCount", 0))
    seed = ctx.get_node_parameter("randomDataSeed", 0)
    rng = random.Random(str(seed)) if seed != "" else random.Random()
    if kind == "nanoid":
        alphabet = str(ctx.get_node_parameter("nanoidAlphabet", 0)) or "0"
        length = int(str(ctx.get_node_parameter("nanoidLength", 0)) or 0)
        generate: Callable[[random.Random], dict[str, Any]] = lambda r: {  # noqa: E731
            "nanoId": "".join(r.choice(alphabet) for _ in range(length))
        }
    else:
        generate = _GENERATORS.get(kind, _user)
    generated = [generate(rng) for _ in range(max(count, 0))]
    if ctx.get_node_parameter("randomDataSingleArray", 0):
        return [{"json": {"generatedItems": generated}, "pairedItem": {"item": index}}]
    return [{"json": data, "pairedItem": {"item": index}} for data in generated]


def _uuid(r: random.Random) -> str:
    return str(uuid.UUID(int=r.getrandbits(128), version=4))


def _email(r: random.Random) -> str:
    return f"{r.choice(_FIRST)}_{r.choice(_LAST)}{r.randint(0, 99)}@{r.choice(_DOMAINS)}"


def _password(r: random.Random) -> str:
    return "".join(r.choice(string.ascii_letters + string.digits + "%$#!&") for _ in range(r.randint(6, 12)))


def _user(r: random.Random) -> dict[str, Any]:
    return {
        "uid": _uuid(r),
        "email": _email(r),
        "firstname": r.choice(_FIRST),
        "lastname": r.choice(_LAST),
        "password": _password(r),
    }


def _address(r: random.Random) -> dict[str, Any]:
    return {
        "firstname": r.choice(_FIRST),
        "lastname": r.choice(_LAST),
        "street": f"{r.randint(1, 9999)} {r.choice(_LAST)} {r.choice(_STREETS)}",
        "city": r.choice(_CITIES),
        "zip": f"{r.randint(0, 99999):05d}",
        "state": r.choice(_STATES),
        "country": r.choice(_COUNTRIES),
    }


def _credit_card(r: random.Random) -> dict[str, Any]:
    return {
        "type": "MasterCard" if r.random() < 0.5 else "Visa",
        "number": "-".join(f"{r.randint(0, 9999):04d}" for _ in range(4)),
        "ccv": f"{r.randint(0, 999):03d}",
        "exp": f"{r.randint(1, 12):02d}/{r.randint(1, 40):02d}",
        "holder_name": f"{r.choice(_FIRST)} {r.choice(_LAST)}",
    }


def _ipv6(r: random.Random) -> str:
    return ":".join(f"{r.getrandbits(16):04x}" for _ in range(8))


_GENERATORS: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "user": _user,
    "email": lambda r: {"email": _email(r), "confirmed": r.random() < 0.5},
    "address": _address,
    "creditCard": _credit_card,
    "uuid": lambda r: {"uuid": _uuid(r)},
    "macAddress": lambda r: {"mac": "-".join(f"{r.getrandbits(8):02x}" for _ in range(6))},
    "ipv4": lambda r: {"ip": ".".join(str(r.randint(0, 255)) for _ in range(4))},
    "ipv6": lambda r: {"ipv6": _ipv6(r)},
    "latLong": lambda r: {"location": f"{r.uniform(-90, 90):.6f}, {r.uniform(-180, 180):.6f}"},
    "semver": lambda r: {"version": f"{r.randint(0, 9)}.{r.randint(0, 20)}.{r.randint(0, 99)}"},
    "url": lambda r: {"url": f"https://{r.choice(_FIRST).lower()}.{r.choice(_TLDS)}"},
}

__all__ = ["MEMORY_LIMIT_MB", "DebugHelper"]
