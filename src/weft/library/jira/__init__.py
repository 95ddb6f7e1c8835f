"""Jira Software (``n8n-nodes-base.jira`` 1 and its ``jiraTool``): issues (JQL search, changelog, notify,
transitions), issue comments, issue attachments and users, on Jira Cloud (email + API token), Jira Server
(user + password) or Jira Server with a personal access token."""
