"""The hosted form pages: n8n's form, completion and message pages as self-contained HTML (no external requests)."""

from weft.server.forms.render import CSP, render_view

__all__ = ["CSP", "render_view"]
