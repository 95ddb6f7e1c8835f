"""The FastAPI application: REST API, webhooks and waiting webhooks over one :class:`Instance`.

``create_app(settings)`` is the composition root: its lifespan opens the database, marks executions a crashed
process left ``running`` as ``crashed``, loads the active workflows (webhooks, schedules) and starts the wait
scheduler; on shutdown it lets running executions finish and closes the database.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from weft import __version__
from weft.engine import gc_policy
from weft.nodes.registry import NodeRegistry
from weft.server.errors import install_error_handlers
from weft.server.mcp import routes as mcp_routes
from weft.server.routes import (
    chat,
    editor,
    forms,
    public_api,
    public_api_audit,
    public_api_credential_schema,
    public_api_versions,
    rest_auth,
    rest_binary_data,
    rest_chat,
    rest_credential_types,
    rest_credentials,
    rest_executions,
    rest_expressions,
    rest_node_types,
    rest_push,
    rest_tags,
    rest_waiting,
    rest_workflows,
    rest_workflows_from_url,
    waiting_webhooks,
    webhooks,
)
from weft.server.security import SecurityMiddleware
from weft.services.instance import Instance
from weft.settings import Settings

log = logging.getLogger("weft.server")

#: Logged on start-up while the instance has no owner: every ``/rest`` call needs a login.
OWNER_SETUP_HINT = (
    "No owner account yet: the REST API answers 401 until you set one up. Run\n"
    "  curl -X POST %s/rest/owner/setup -H 'content-type: application/json' \\\n"
    '       -d \'{"email":"you@example.com","firstName":"You","lastName":"Owner",'
    '"password":"<8+ chars, a digit, an upper-case letter>"}\'\n'
    "then log in with POST /rest/login (the answer sets the n8n-auth cookie) and create API keys with "
    "POST /rest/api-keys for /api/v1."
)

#: Set by ``weft start`` for its worker processes: crash recovery already ran in the parent.
RECOVERED_ENV = "WEFT_SERVER_RECOVERED"


def create_app(
    settings: Settings | None = None,
    *,
    registry: NodeRegistry | None = None,
    recover: bool = True,
    background: bool = True,
) -> FastAPI:
    """The app for ``settings`` (default: from the environment).

    ``recover`` marks left-over ``running`` executions as crashed on start-up: only one process of an
    instance may do it, before any serves requests. ``background`` lets this process compete for running
    the schedulers.
    """
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        inline = os.environ.get("WEFT_DB_INLINE")
        inline_db = None if inline is None else inline.lower() in ("1", "true", "yes")
        instance = await asyncio.to_thread(lambda: Instance.open(settings, registry, inline_db=inline_db))
        app.state.instance = instance
        try:
            await instance.start(recover=recover, background=background)
            # what exists now (modules, the workflows) lives as long as the process: out of the cyclic
            # collector's full passes, which otherwise add tens of ms to the latency tail
            gc_policy.settle()
            if not await instance.runner.db(instance.auth.owner_is_set_up):
                log.warning(OWNER_SETUP_HINT, settings.base_url.rstrip("/"))
            yield
        finally:
            await instance.close(settings.graceful_shutdown_timeout)

    app = FastAPI(
        title="Weft",
        version=__version__,
        description="Runs n8n workflows: REST API for workflows, executions and credentials; webhooks.",
        lifespan=lifespan,
    )
    app.include_router(rest_auth.router, prefix="/rest")
    app.include_router(rest_workflows_from_url.router, prefix="/rest")  # before /workflows/{id}
    app.include_router(rest_workflows.router, prefix="/rest")
    app.include_router(rest_tags.router, prefix="/rest")
    app.include_router(rest_executions.router, prefix="/rest")
    app.include_router(rest_expressions.router, prefix="/rest")
    app.include_router(rest_waiting.router, prefix="/rest")
    app.include_router(rest_credentials.router, prefix="/rest")
    app.include_router(rest_credential_types.router, prefix="/rest")
    app.include_router(rest_binary_data.router, prefix="/rest")
    app.include_router(rest_push.router, prefix="/rest")
    app.include_router(rest_node_types.router, prefix="/rest")
    app.include_router(rest_chat.router, prefix="/rest")
    app.include_router(public_api.router, prefix="/api/v1")
    app.include_router(public_api_audit.router, prefix="/api/v1")
    app.include_router(public_api_credential_schema.router, prefix="/api/v1")
    app.include_router(public_api_versions.router, prefix="/api/v1")
    # first: the webhook routes are the hot path, and the router tries routes in order; the chat routes
    # (``/webhook/<id>/chat``) go before the generic ``/webhook/<path>`` route
    app.router.routes[0:0] = [*chat.routes, *forms.routes, *webhooks.routes, *waiting_webhooks.routes, *mcp_routes]

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    editor.install(app)  # the web editor at / and the offline /docs
    install_error_handlers(app)
    app.add_middleware(SecurityMiddleware, settings=settings)
    return app


def app_from_env() -> FastAPI:
    """The uvicorn factory of ``weft start`` workers (``uvicorn weft.server.app:app_from_env --factory``)."""
    return create_app(Settings.from_env(), recover=os.environ.get(RECOVERED_ENV) != "1")


__all__ = ["OWNER_SETUP_HINT", "RECOVERED_ENV", "app_from_env", "create_app"]
