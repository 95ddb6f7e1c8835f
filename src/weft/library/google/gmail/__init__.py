"""The Gmail node (``n8n-nodes-base.gmail``): messages, labels, drafts and threads."""
