"""The node-type registry: built-ins, ``weft.nodes`` entry points, and synthesized ``…Tool`` types.

Built-in types are listed by name (:mod:`weft.nodes.catalog`) and imported from the library on first use, so
``weft execute`` only imports the nodes its workflow uses. Weft's demo and test models (``DEMO_NODE_TYPES``: the
Scripted and Demo Chat Models, Demo Embeddings) are kept aside: a registry offers them, and imports their modules,
only when demo nodes are allowed (``WEFT_DEMO_NODES``, :func:`allow_demo_nodes`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping

from weft.errors import UnknownNodeTypeError
from weft.nodes.catalog import DEMO_NODE_TYPES, DEMO_NODES_SETTING
from weft.nodes.contract import NodeType

#: ``{type name: "module:Class"}`` or a loaded class.
CatalogEntry = str | type[NodeType]

#: Hook that turns a ``usableAsTool`` node type into its ``…Tool`` type (set by ``weft.nodes.as_tool``).
ToolSynthesizer = Callable[[type[NodeType]], type[NodeType]]


#: Whether registries built without ``demo_nodes`` offer the demo models; only :func:`allow_demo_nodes` sets it.
_demo_nodes_allowed = False


def allow_demo_nodes() -> None:
    """Let every registry of the process that was not told otherwise offer :data:`DEMO_NODE_TYPES`.

    The composition roots call it when ``WEFT_DEMO_NODES`` is on (the CLI, the server's runner), and
    ``tests/conftest.py`` for the test suite. It is never undone in a process, so no cached type goes stale; a
    registry built with ``demo_nodes=False`` keeps them out regardless.
    """
    global _demo_nodes_allowed
    _demo_nodes_allowed = True


class NodeRegistry:
    """Resolves a node's ``type`` and ``typeVersion`` to a :class:`NodeType` instance.

    ``demo_nodes`` says whether the installed demo models (:data:`DEMO_NODE_TYPES`) are offered; ``None`` (the
    default) follows :func:`allow_demo_nodes`. Types given in ``catalog`` or to :meth:`register` are always offered.
    """

    def __init__(
        self,
        catalog: Mapping[str, CatalogEntry] | None = None,
        *,
        load_entry_points: bool = True,
        demo_nodes: bool | None = None,
    ) -> None:
        self._catalog: dict[str, CatalogEntry] = {}
        #: The installed demo models, offered only while :attr:`demo_nodes` holds.
        self._demo: dict[str, CatalogEntry] = {}
        self._demo_nodes = demo_nodes
        self._instances: dict[str, NodeType] = {}
        self._entry_points_loaded = not load_entry_points
        #: n8n's declarative types, run from their descriptions: consulted after the native types and packages.
        self._declarative: dict[str, str] = {}
        if catalog is None:
            from weft.nodes.catalog import CATALOG
            from weft.nodes.routing.catalog import declarative_catalog

            catalog = CATALOG
            self._declarative = declarative_catalog()
        self._catalog.update(catalog)

    # ------------------------------------------------------------------ registration

    def register(self, node_type: type[NodeType], *, name: str | None = None) -> None:
        """Add (or replace) a node type."""
        key = name or node_type.description.name
        self._catalog[key] = node_type
        self._instances.pop(key, None)

    def register_many(self, node_types: Iterable[type[NodeType]]) -> None:
        for node_type in node_types:
            self.register(node_type)

    def _load_entry_points(self) -> None:
        if self._entry_points_loaded:
            return
        self._entry_points_loaded = True
        from weft.nodes._node_packages import load_node_packages  # checks each package, errors name it

        for key, value in load_node_packages().items():
            (self._demo if key in DEMO_NODE_TYPES else self._catalog).setdefault(key, value)

    @property
    def demo_nodes(self) -> bool:
        """Whether this registry offers the demo models (``WEFT_DEMO_NODES``)."""
        return _demo_nodes_allowed if self._demo_nodes is None else self._demo_nodes

    # ------------------------------------------------------------------ lookup

    def names(self) -> list[str]:
        self._load_entry_points()
        return sorted({*self._catalog, *self._declarative, *(self._demo if self.demo_nodes else ())})

    def type_class(self, type_name: str) -> type[NodeType] | None:
        entry = self._catalog.get(type_name)
        if entry is None:
            self._load_entry_points()
            entry = self._catalog.get(type_name) or self._declarative.get(type_name)
        if entry is None:
            return self._demo_class(type_name) if type_name in self._demo else self._synthesize_tool(type_name)
        if isinstance(entry, str):
            entry = self._catalog[type_name] = _load(entry)
        return entry

    def _demo_class(self, type_name: str) -> type[NodeType] | None:
        """A demo model's class, imported only once demo nodes are allowed."""
        if not self.demo_nodes:
            return None
        entry = self._demo[type_name]
        if isinstance(entry, str):
            entry = self._demo[type_name] = _load(entry)
        return entry

    def get(self, type_name: str, version: float | None = None) -> NodeType:
        """The node type, or :class:`UnknownNodeTypeError` naming it."""
        instance = self._instances.get(type_name)
        if instance is None:
            cls = self.type_class(type_name)
            if cls is None:
                raise UnknownNodeTypeError(self._unknown_message(type_name), field="type")
            instance = self._instances[type_name] = cls()
        return instance

    def check(self, type_name: str, version: float) -> str | None:
        """``None`` when usable, else why not (used by workflow validation)."""
        cls = self.type_class(type_name)
        if cls is None:
            return self._unknown_message(type_name)
        versions = cls.description.versions
        if version not in versions and not _any_version(type_name):
            listed = ", ".join(f"{v:g}" for v in versions)
            return (
                f"Node type {type_name!r} has no typeVersion {version:g}. "
                f"Supported versions: {listed}; set the node's 'typeVersion' to one of them."
            )
        return None

    def _unknown_message(self, type_name: str) -> str:
        if type_name in DEMO_NODE_TYPES and not self.demo_nodes:
            return _demo_message(type_name)
        base = self.type_class(type_name.removesuffix("Tool")) if type_name.endswith("Tool") else None
        if base is None:
            return _unknown_message(type_name)
        return (  # n8n: "Node cannot be used as a tool"
            f"Node type {type_name!r} does not exist: {base.description.name!r} cannot be used as a tool (n8n does "
            "not mark it usableAsTool). Connect a tool node instead, such as the HTTP Request Tool or the Code Tool."
        )

    def _synthesize_tool(self, type_name: str) -> type[NodeType] | None:
        if not type_name.endswith("Tool"):
            return None
        base = self.type_class(type_name[: -len("Tool")])
        if base is None or not base.description.usable_as_tool:
            return None
        from weft.nodes.as_tool import convert_node_to_tool

        tool = convert_node_to_tool(base)
        self._catalog[type_name] = tool
        return tool


def _load(entry: str) -> type[NodeType]:
    """The class a ``"module:Class"`` catalog string names."""
    module_name, _, attr = entry.partition(":")
    loaded: type[NodeType] = getattr(importlib.import_module(module_name), attr)
    return loaded


def _any_version(type_name: str) -> bool:
    """Whether n8n implements the type as one class, which runs at any ``typeVersion`` (n8n's
    ``getVersionedNodeType`` returns it whatever the version; a ``VersionedNodeType`` refuses one it lacks)."""
    from weft.nodes.coverage import n8n_node_types

    summary = n8n_node_types()["types"].get(type_name)
    return summary is not None and not summary.get("versioned", True)


#: Node types n8n 2 turns off by default (its ``NODES_EXCLUDE``) because they reach the host's shell or disk
#: outside any sandbox; Weft does not offer them at all.
DISABLED_FOR_SAFETY = {
    "n8n-nodes-base.executeCommand": "runs shell commands on the server",
    "n8n-nodes-base.localFileTrigger": "watches the server's file system",
}


def _unknown_message(type_name: str) -> str:
    if type_name in DISABLED_FOR_SAFETY:
        return (
            f"Node type {type_name!r} is disabled: it {DISABLED_FOR_SAFETY[type_name]}, so Weft, like n8n 2 by "
            "default, does not run it. Replace it with a Code node, or with Read/Write Files from Disk for files."
        )
    return (
        f"Unknown node type {type_name!r}. It is not built into Weft and no installed package provides it "
        "(packages add node types through the 'weft.nodes' entry point); replace the node or install its package."
    )


def _demo_message(type_name: str) -> str:
    """Why a demo model is refused: its first sentence names the type and the setting (workflow validation keeps only
    the first sentence when it lists several missing types)."""
    real = "Embeddings OpenAI" if "embeddings" in type_name.lower() else "OpenAI Chat Model"
    return (
        f"Node type {type_name!r} ({DEMO_NODE_TYPES[type_name]}) is one of Weft's demo and test models, which this "
        f"instance does not offer unless {DEMO_NODES_SETTING}=true. Set {DEMO_NODES_SETTING}=true to run it (demos, "
        f"tests), or replace the node with a real one such as {real} and its credential."
    )


_default: NodeRegistry | None = None


def default_registry() -> NodeRegistry:
    """The process-wide registry with the built-in nodes and installed packages."""
    global _default
    if _default is None:
        _default = NodeRegistry()
    return _default
