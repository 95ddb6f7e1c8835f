"""Todoist (``n8n-nodes-base.todoist`` 2, 2.1, 2.2 and its ``todoistTool``): tasks, projects, sections and labels
over Todoist's REST API v2 (node versions 2, 2.1) or its unified API v1 (2.2), moves over the Sync API."""
