"""Google Docs (``n8n-nodes-base.googleDocs`` 1, 2 and its ``googleDocsTool``): create a document (through Drive),
get one (its text, or the whole document), update one with ``batchUpdate`` actions, over the Docs API v1."""
