"""Discord (``n8n-nodes-base.discord`` 1 and 2): the node, its transport and operations."""
