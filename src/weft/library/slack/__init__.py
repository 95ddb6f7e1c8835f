"""Slack (``n8n-nodes-base.slack``): the node, its Web API transport and operations."""
