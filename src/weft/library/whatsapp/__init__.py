"""WhatsApp Business Cloud: n8n's declarative node (run from its description, :mod:`weft.nodes.routing`) with its
one operation of code, *Send and Wait for Response* (:mod:`.whatsapp_node`)."""
