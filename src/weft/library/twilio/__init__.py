"""The Twilio node (``n8n-nodes-base.twilio``)."""
