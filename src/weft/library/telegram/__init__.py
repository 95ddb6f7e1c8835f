"""The Telegram node (``n8n-nodes-base.telegram``): the Bot API's messages, chats, callbacks and files."""
