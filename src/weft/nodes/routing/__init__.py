"""n8n's declarative nodes, run from their descriptions (n8n's ``RoutingNode``): the node kit's generic runner.

A declarative node has no code of its own: its description's ``requestDefaults`` and its properties' ``routing``
say which HTTP request each operation sends and how the answer becomes items. The modules, in the order a run uses
them: :mod:`.defaults` (the parameters as n8n holds them), :mod:`.scope` (expressions with ``$value``,
``$credentials`` …), :mod:`.request` (``requestDefaults``, ``routing.request``/``send``/``output``),
:mod:`.authenticate` (the credential: ``authenticate``, ``preAuthentication``, OAuth2, allowed domains),
:mod:`.transport` (through the kit's HTTP layer, :mod:`weft.nodes.http`), :mod:`.postreceive` and
:mod:`.pagination`; :mod:`.functions` and :mod:`.ports` for the JavaScript functions descriptions hold;
:mod:`.node` and :mod:`.catalog` for the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from weft._lazy import lazy_exports

if TYPE_CHECKING:
    from weft.nodes.routing.catalog import declarative_catalog, declarative_types
    from weft.nodes.routing.node import DeclarativeNode, declarative_class

__getattr__ = lazy_exports(
    __name__,
    {
        "DeclarativeNode": "weft.nodes.routing.node",
        "declarative_class": "weft.nodes.routing.node",
        "declarative_catalog": "weft.nodes.routing.catalog",
        "declarative_types": "weft.nodes.routing.catalog",
    },
    globals(),
)

__all__ = ["DeclarativeNode", "declarative_catalog", "declarative_class", "declarative_types"]
