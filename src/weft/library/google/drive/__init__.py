"""The Google Drive node (``n8n-nodes-base.googleDrive``): files, folders, shared drives and search."""
