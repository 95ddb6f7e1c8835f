"""The n8n Form Trigger and n8n Form nodes; the pages the host renders are in :mod:`weft.nodes.forms`."""
