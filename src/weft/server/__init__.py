"""The HTTP server (L8): FastAPI on uvicorn, REST API, webhooks and waiting webhooks."""

from weft.server.app import app_from_env, create_app

__all__ = ["app_from_env", "create_app"]
