"""The Edit Image node (``n8n-nodes-base.editImage``) on Pillow."""
