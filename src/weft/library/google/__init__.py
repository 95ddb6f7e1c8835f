"""Google nodes (Sheets, Gmail, Drive, Calendar, Docs), one folder each, and what they share
(:mod:`weft.library.google._common`: n8n's ``getGoogleAccessToken`` for service accounts, the scopes of each
service, and the request helper that picks the credential by the node's ``authentication`` parameter)."""
