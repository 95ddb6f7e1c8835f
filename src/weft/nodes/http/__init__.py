"""Sending HTTP requests from a node (n8n's ``helpers.httpRequest``): the request, redirects and timeouts, files up
and down through the binary-data store, n8n's HTTP errors, and a tool's "Optimize Response"."""
