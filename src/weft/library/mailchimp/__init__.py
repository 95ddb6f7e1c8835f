"""Mailchimp (``n8n-nodes-base.mailchimp`` 1 and its ``mailchimpTool``): list members, member tags, campaigns
and interest groups over the Marketing API 3.0 (``https://<dc>.api.mailchimp.com/3.0``)."""
