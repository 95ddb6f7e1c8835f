"""``weft worker`` and ``weft webhook``: the processes of queue mode besides ``weft start`` (n8n's ``worker`` and
``webhook`` commands). Both need ``WEFT_EXECUTIONS_MODE=queue`` and PostgreSQL (docs/queue-mode.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import signal
import sys
from typing import Any

#: Executions one worker runs at once by default (n8n's ``--concurrency``, 10).
DEFAULT_CONCURRENCY = 10


def register(commands: Any) -> None:
    worker = commands.add_parser(
        "worker", help="run queued executions (queue mode)", description=_WORKER_DOC, formatter_class=_Raw
    )
    worker.add_argument(
        "--concurrency",
        type=int,
        default=DEFAULT_CONCURRENCY,
        help=f"executions at once (default {DEFAULT_CONCURRENCY})",
    )
    worker.set_defaults(handler=run_worker)
    webhook = commands.add_parser(
        "webhook", help="answer webhooks only (queue mode)", description=_WEBHOOK_DOC, formatter_class=_Raw
    )
    webhook.add_argument("--host", help="address to listen on (default WEFT_HOST or 127.0.0.1)")
    webhook.add_argument("--port", type=int, help="port to listen on (default WEFT_PORT or 5678)")
    webhook.set_defaults(handler=run_webhook)


_Raw = argparse.RawDescriptionHelpFormatter
_WORKER_DOC = """Run the executions that mains (weft start, weft webhook) queue, until stopped (SIGTERM, Ctrl-C).
Start as many as you like, on any machine that reaches the database."""
_WEBHOOK_DOC = """Serve webhooks (and the API) and queue their executions for workers; never runs schedules,
polling triggers or timed resumes (the leader among the weft start processes does)."""


def _queue_settings() -> Any:
    """The settings, or ``None`` after saying why queue mode cannot run with them."""
    from weft.errors import ConfigurationError
    from weft.queue.tasks import libpq_url
    from weft.settings import Settings

    try:
        settings = Settings.from_env()
        if settings.executions_mode != "queue":
            raise ConfigurationError(
                "This command belongs to queue mode: set WEFT_EXECUTIONS_MODE=queue (and WEFT_DATABASE_URL to the "
                "PostgreSQL database every process shares) here and for weft start."
            )
        libpq_url(settings.database_url)
    except (ConfigurationError, ValueError) as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return None
    return settings


def run_worker(args: argparse.Namespace) -> int:
    settings = _queue_settings()
    if settings is None:
        return 2
    if args.concurrency < 1:
        print("weft: --concurrency must be 1 or more", file=sys.stderr)
        return 2
    asyncio.run(_work(settings, args.concurrency))
    return 0


async def _work(settings: Any, concurrency: int) -> None:
    from weft.queue.tasks import task_app
    from weft.services.import_export import open_store
    from weft.services.queue_worker import QueueWorker
    from weft.services.runner import WorkflowRunner

    store = await asyncio.to_thread(open_store, settings)
    runner = WorkflowRunner(store, settings)
    runner.log_errors = True
    worker = QueueWorker(runner, task_app(settings.database_url))
    serving = asyncio.ensure_future(worker.serve(concurrency))
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, serving.cancel)
    print(f"Weft worker {worker.name} runs queued executions ({concurrency} at once)", file=sys.stderr, flush=True)
    try:
        with contextlib.suppress(asyncio.CancelledError):
            await serving
    finally:
        await runner.drain(settings.graceful_shutdown_timeout)
        runner.close()
        store.close()


def run_webhook(args: argparse.Namespace) -> int:
    settings = _queue_settings()
    if settings is None:
        return 2
    import uvicorn

    from weft.cli.start import _announce, bind_or_explain, uvicorn_options
    from weft.server.app import create_app

    settings = dataclasses.replace(settings, host=args.host or settings.host, port=args.port or settings.port)
    sock = bind_or_explain(settings.host, settings.port)
    if sock is None:
        return 2
    _announce(settings.host, settings.port, 1)
    app = create_app(settings, recover=False, background=False)
    uvicorn.Server(uvicorn.Config(app, **uvicorn_options())).run(sockets=[sock])
    return 0


__all__ = ["DEFAULT_CONCURRENCY", "register", "run_webhook", "run_worker"]
