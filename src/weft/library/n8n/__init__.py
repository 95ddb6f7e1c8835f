"""The n8n node: n8n's public API (workflows, executions, credentials, audit) over HTTP."""
