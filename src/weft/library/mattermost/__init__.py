"""Mattermost (``n8n-nodes-base.mattermost`` 1 and its ``mattermostTool``): messages, channels, reactions and users
over Mattermost's REST API v4 (``<baseUrl>/api/v4``) with the ``mattermostApi`` credential's bearer token."""
