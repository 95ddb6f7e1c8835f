"""The Notion node (``n8n-nodes-base.notion``): databases, database pages, pages, blocks and users."""
