"""Trello (``n8n-nodes-base.trello`` 1 and its ``trelloTool``): boards, board members, cards, card comments,
lists, attachments, checklists and labels over Trello's REST API (``https://api.trello.com/1``)."""
