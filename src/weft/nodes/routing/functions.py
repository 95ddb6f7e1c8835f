"""The JavaScript functions of n8n's declarative descriptions, and their Python ports.

A description may hold functions where data would do too little: ``preSend`` (change the request), a
``postReceive`` action (change the items), ``operations.pagination`` (make the requests), and a credential's
``authenticate`` or ``preAuthentication``. ``nodes.json`` drops them, so the export reads them from n8n's classes
and writes ``{"$function": name, "sha": …}`` (the hash of the source), and Weft runs the port registered for that
hash (:mod:`weft.nodes.routing.ports`): a function whose code changes in a new n8n has no port until one is
written. A function without a port fails the operation that would run it with an error naming it; nothing else
of the node is affected.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from weft.errors import NodeOperationError

Kind = Literal["preSend", "postReceive", "pagination", "authenticate", "preAuthentication"]
PortFn = Callable[..., Awaitable[Any]]


def _port_modules() -> list[str]:
    """The modules that register ports: every module of :mod:`weft.nodes.routing.ports` (imported on the first
    lookup), so a new node's ports are one new module and nothing else."""
    from weft.nodes.routing import ports

    return sorted(f"{ports.__name__}.{info.name}" for info in pkgutil.iter_modules(ports.__path__))


@dataclass(frozen=True, kw_only=True)
class Port:
    """A Python port of one of n8n's description functions."""

    name: str
    """The function's name in n8n (``""`` for an inline one)."""
    kind: Kind
    shas: tuple[str, ...]
    """The hashes of the JavaScript sources it ports (n8n versions may compile a function differently)."""
    fn: PortFn


_ports: dict[str, Port] = {}
_loaded = False


def port(kind: Kind, name: str, *shas: str) -> Callable[[PortFn], PortFn]:
    """Register ``fn`` as the port of the functions with hashes ``shas``."""

    def register(fn: PortFn) -> PortFn:
        entry = Port(name=name, kind=kind, shas=shas, fn=fn)
        for sha in shas:
            _ports[sha] = entry
        return fn

    return register


def is_function(value: Any) -> bool:
    """Whether a description value stands for a JavaScript function (its marker, or ``null`` in n8n's JSON)."""
    return value is None or (isinstance(value, Mapping) and "$function" in value)


def find_port(marker: Any) -> Port | None:
    global _loaded
    if not _loaded:
        for module in _port_modules():
            importlib.import_module(module)
        _loaded = True
    sha = marker.get("sha") if isinstance(marker, Mapping) else None
    return _ports.get(str(sha)) if sha else None


def ported(marker: Any, kind: Kind, node_name: str, type_name: str, item_index: int | None = None) -> PortFn:
    """The port of a function of ``type_name``'s description, or the error saying it has none."""
    found = find_port(marker)
    if found is not None and found.kind == kind:
        return found.fn
    named = marker.get("$function") if isinstance(marker, Mapping) else None
    what = f"function {named!r}" if named else "an inline function"
    sha = marker.get("sha") if isinstance(marker, Mapping) else None
    raise NodeOperationError(
        node_name,
        f"This operation of {type_name} runs {what} of n8n's description ({kind}) that Weft has not ported",
        item_index=item_index,
        description=(
            f"n8n runs this part of the node with JavaScript code (source hash {sha}); Weft runs a declarative node "
            "from its description and ports such functions one by one (weft.nodes.routing.ports). Use another "
            "operation, or the HTTP Request node with the same credential."
        ),
    )


def ported_names() -> list[str]:
    """``kind name (sha)`` of every port, for the documentation."""
    find_port({})
    return sorted({f"{p.kind} {p.name or '(inline)'} ({', '.join(p.shas)})" for p in _ports.values()})


__all__ = ["Kind", "Port", "find_port", "is_function", "port", "ported", "ported_names"]
