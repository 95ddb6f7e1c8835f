"""Baserow (``n8n-nodes-base.baserow``)."""
