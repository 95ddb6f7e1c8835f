"""An example Weft node package: one node, ``weft-node-example.greet``."""

from weft_node_example.greet import Greet

#: What the ``weft.nodes`` entry point names (pyproject.toml).
NODE_TYPES = [Greet]

__all__ = ["NODE_TYPES", "Greet"]
