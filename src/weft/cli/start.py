"""``weft start``: the server (REST API, webhooks, waiting webhooks, schedules) on uvicorn.

Listens on ``WEFT_HOST``:``WEFT_PORT`` (127.0.0.1:5678) with ``WEFT_WORKERS`` processes (default 1, like n8n;
on 2 cores, 2 workers nearly double the webhook throughput). Before any worker serves, the database is migrated
and executions a crashed process left ``running`` are marked ``crashed``: once, here, not per worker.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import os
import socket
import sys
from typing import Any

#: Default number of worker processes (``WEFT_WORKERS``).
DEFAULT_WORKERS = 1

#: Tells the workers that recovery ran; the same name as ``weft.server.app.RECOVERED_ENV`` (a test checks it).
RECOVERED_ENV = "WEFT_SERVER_RECOVERED"


def register(commands: Any) -> None:
    cmd = commands.add_parser("start", help="start the server", description=__doc__)
    cmd.add_argument("--host", help="address to listen on (default WEFT_HOST or 127.0.0.1)")
    cmd.add_argument("--port", type=int, help="port to listen on (default WEFT_PORT or 5678)")
    cmd.add_argument(
        "--workers",
        type=int,
        help=f"worker processes (default WEFT_WORKERS or {DEFAULT_WORKERS}); they share the database",
    )
    cmd.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    from weft.errors import ConfigurationError
    from weft.settings import Settings

    try:
        settings = Settings.from_env()
        workers = args.workers or int(os.environ.get("WEFT_WORKERS") or DEFAULT_WORKERS)
    except (ConfigurationError, ValueError) as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    host = args.host or settings.host
    port = args.port or settings.port
    sock = bind_or_explain(host, port)  # before anything says it listens
    if sock is None:
        return 2
    if workers <= 1:
        return _serve_one(dataclasses.replace(settings, host=host, port=port), sock)
    # the supervisor stays small: the database work runs in a short-lived child process
    if not _recover_in_child():
        sock.close()
        print("weft: cannot open the database; see the error above", file=sys.stderr)
        return 2
    _announce(host, port, workers)
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    os.environ[RECOVERED_ENV] = "1"
    os.environ["WEFT_HOST"], os.environ["WEFT_PORT"] = host, str(port)
    config = uvicorn.Config("weft.server.app:app_from_env", factory=True, workers=workers, **uvicorn_options())
    Multiprocess(config, sockets=[sock]).run()
    return 0


def _serve_one(settings: Any, sock: socket.socket) -> int:
    import uvicorn

    from weft.errors import WeftError
    from weft.server.app import create_app

    # Migrating imports Alembic (about 10 MiB that would stay in the server's memory): when the database is not
    # at the newest schema yet, a short-lived child migrates it. If that fails, the error shows from here.
    try:
        if not (_needs_migration(settings.database_url) and _recover_in_child()):
            recover()
    except WeftError as exc:  # a wrong key or database URL: the message says the fix
        sock.close()
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    except BaseException:
        sock.close()
        raise
    _announce(settings.host, settings.port, 1)
    server = uvicorn.Server(uvicorn.Config(create_app(settings, recover=False), **uvicorn_options()))
    server.run(sockets=[sock])
    return 0


def bind_or_explain(host: str, port: int) -> socket.socket | None:
    """The listening socket; ``None`` after saying why it cannot be had (a busy port, a bad address)."""
    try:
        return tcp_socket(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            other = port + 1 if port < 65535 else 5678
            print(
                f"weft: port {port} on {host} is already in use (another Weft, n8n or other program). Stop that "
                f"program, or start on another port: WEFT_PORT={other} weft start (or --port {other}).",
                file=sys.stderr,
            )
        else:
            print(
                f"weft: cannot listen on {host}:{port}: {exc.strerror or exc}. Set WEFT_HOST (or --host) to an "
                "address of this machine, such as 127.0.0.1 or 0.0.0.0, and WEFT_PORT (or --port) to a free port "
                "(ports below 1024 need privileges).",
                file=sys.stderr,
            )
        return None


def _recover_in_child() -> bool:
    """:func:`recover` in a spawned child process; whether it succeeded."""
    import multiprocessing

    child = multiprocessing.get_context("spawn").Process(target=recover, name="weft-recover")
    child.start()
    child.join()
    return child.exitcode == 0


def _needs_migration(database_url: str) -> bool:
    """Whether the database answers and is not at the newest migration yet (read without Alembic)."""
    from sqlalchemy import text

    from weft.db.engine import create_db_engine
    from weft.db.migrate import HEAD_REVISION

    try:
        engine = create_db_engine(database_url)
    except Exception:  # an invalid URL: recover() reports it
        return False
    try:
        with engine.connect() as connection:
            try:
                row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
            except Exception:  # no such table: an empty database
                return True
    except Exception:  # the database does not answer: recover() reports it
        return False
    finally:
        engine.dispose()
    return row is None or row[0] != HEAD_REVISION


def recover() -> None:
    """Migrate the database and mark executions left ``running`` as ``crashed``."""
    from weft.services.import_export import open_store
    from weft.settings import Settings

    settings = Settings.from_env()
    store = open_store(settings)
    try:  # in queue mode workers elsewhere run executions: a lost one is taken back when its lease expires
        crashed = store.executions.mark_crashed() if settings.executions_mode != "queue" else []
    finally:
        store.close()
    if crashed:
        print(
            f"weft: executions {', '.join(crashed)} were left running by a previous process: marked crashed",
            file=sys.stderr,
        )


def _announce(host: str, port: int, workers: int) -> None:
    from weft.settings import instance_base_url

    plural = "es" if workers > 1 else ""
    url = instance_base_url("", host, port).rstrip("/")  # a link that works: localhost for 0.0.0.0
    print(f"Weft is listening on {url} ({workers} worker process{plural})", file=sys.stderr, flush=True)


def uvicorn_options() -> dict[str, Any]:
    """How ``weft start`` runs uvicorn. Its proxy-header handling is off: it would take ``X-Forwarded-For`` from any
    local process as the caller's address; Weft reads it only by ``WEFT_PROXY_HOPS`` (``weft.server.http.caller``).
    """
    return {"log_level": "warning", "access_log": False, "timeout_graceful_shutdown": 10, "proxy_headers": False}


def tcp_socket(host: str, port: int) -> socket.socket:
    """The listening socket, created with protocol ``IPPROTO_TCP``.

    uvicorn's own ``bind_socket`` leaves the protocol 0, and asyncio then does not set ``TCP_NODELAY`` on the
    accepted connections: every answer waits for the client's delayed ACK (about 40 ms).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock
