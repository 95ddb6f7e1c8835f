"""The node library: n8n's node types, implemented one per module and grouped by service in folders of their own
(``core/`` for the flow and data nodes, ``http_request/``, ``postgres/``, ``files/``, …).

No module of Weft outside it imports this package (tests may). The registry loads a type from its catalog string
(``"module:Class"`` in :data:`weft.nodes.catalog.CATALOG`) the first time a workflow uses it; what the host needs
of a node (a webhook's options, a form's page, the timer rules of a trigger, …) lives in the kit,
:mod:`weft.nodes`, which the library imports. ``tests/test_layering.py`` enforces both. A folder may use the
modules of another (the RSS node parses with the XML node's xml2js, the SQL nodes find ``{{ }}`` in queries as
the Set node does).
"""
