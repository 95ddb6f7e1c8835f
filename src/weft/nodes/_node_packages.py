"""Node packages: installed distributions that add node types through the ``weft.nodes`` entry point.

An entry point names a :class:`NodeType` subclass, a list of them, or a mapping ``{type name: class or
"module:Class"}`` (see docs/node-kit.md). A package that cannot be loaded, or that offers something that is not a
described node type, is a :class:`ConfigurationError` naming the package, the entry point and the fix, not an
``AttributeError`` from deep inside the registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from weft.errors import ConfigurationError
from weft.nodes.contract import NodeDescription, NodeType

GROUP = "weft.nodes"


def load_node_packages() -> dict[str, type[NodeType] | str]:
    """Every installed package's node types by type name (the first package to name a type keeps it)."""
    catalog: dict[str, type[NodeType] | str] = {}
    for ep in entry_points(group=GROUP):
        for key, value in node_types_of(ep).items():
            catalog.setdefault(key, value)
    return catalog


def package_of(ep: EntryPoint) -> str:
    """The distribution that declares ``ep`` (its module when the metadata does not say)."""
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name or ep.module)


def node_types_of(ep: EntryPoint) -> dict[str, type[NodeType] | str]:
    """The node types one entry point offers, checked."""
    package = package_of(ep)
    try:
        loaded = ep.load()
    except Exception as exc:
        raise _bad(package, ep, f"cannot be loaded: {type(exc).__name__}: {exc}") from exc
    if isinstance(loaded, Mapping):
        return {str(key): _checked_entry(package, ep, value) for key, value in loaded.items()}
    if isinstance(loaded, type):
        node_type = _checked_class(package, ep, loaded)
        return {node_type.description.name: node_type}
    if isinstance(loaded, Iterable) and not isinstance(loaded, str | bytes):
        classes = [_checked_class(package, ep, value) for value in loaded]
        return {cls.description.name: cls for cls in classes}
    raise _bad(package, ep, f"gives {type(loaded).__name__}, not a NodeType class, a list of them or a mapping")


def _checked_entry(package: str, ep: EntryPoint, value: Any) -> type[NodeType] | str:
    if isinstance(value, str):
        if ":" not in value:
            raise _bad(package, ep, f"maps a type to {value!r}, which is not 'module:Class'")
        return value  # imported when a workflow uses it
    return _checked_class(package, ep, value)


def _checked_class(package: str, ep: EntryPoint, value: Any) -> type[NodeType]:
    if not (isinstance(value, type) and issubclass(value, NodeType)):
        raise _bad(package, ep, f"offers {value!r}, which is not a subclass of weft.nodes.NodeType")
    description = getattr(value, "description", None)
    if not isinstance(description, NodeDescription):
        raise _bad(package, ep, f"offers {value.__name__}, which has no NodeDescription as 'description'")
    if not description.name or not description.display_name or not description.versions:
        raise _bad(package, ep, f"offers {value.__name__}, whose description lacks a name, display_name or versions")
    if not (value.supports("execute") or value.supports("supply_data")):
        raise _bad(package, ep, f"offers {value.__name__}, which implements neither execute nor supply_data")
    return value


def _bad(package: str, ep: EntryPoint, why: str) -> ConfigurationError:
    fix = f"fix the package (docs/node-kit.md) or uninstall it: pip uninstall {package}"
    return ConfigurationError(
        f"The node package {package!r} is broken: its {GROUP!r} entry point {ep.name!r} ({ep.value}) {why}; {fix}",
        description=fix[0].upper() + fix[1:],
    )
