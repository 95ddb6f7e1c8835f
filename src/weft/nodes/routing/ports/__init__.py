"""Python ports of the JavaScript functions in n8n's declarative descriptions, one module per node (``common``:
functions several nodes share; ``credentials``: credential types' ``authenticate`` and ``preAuthentication``).
Each is registered by the hashes of the sources it ports (:func:`weft.nodes.routing.functions.port`)."""
