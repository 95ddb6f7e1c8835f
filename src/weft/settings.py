"""Weft's configuration, read from ``WEFT_*`` environment variables (L8: a composition root).

:class:`Settings` is a frozen dataclass rather than a pydantic-settings model because
``pydantic-settings`` is not a dependency; :meth:`Settings.from_env` does the parsing and names the
variable in every error. Lower layers never import this module: the server and the CLI read the
settings once and pass plain values (a database URL, a key, a folder) down.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from weft.errors import ConfigurationError

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


@dataclass(frozen=True, kw_only=True)
class Settings:
    """Everything an operator can configure, with n8n's defaults where n8n has the same setting."""

    user_folder: Path = field(default_factory=lambda: Path("~/.weft").expanduser())
    """``WEFT_USER_FOLDER``: where the SQLite database and the ``config`` file (encryption key) live."""
    database_url: str = ""
    """``WEFT_DATABASE_URL``: a SQLAlchemy URL; ``sqlite:///<user folder>/database.sqlite`` when unset.
    ``postgresql://user:pass@host/db`` selects PostgreSQL (driven by psycopg 3)."""
    encryption_key: str | None = None
    """``WEFT_ENCRYPTION_KEY``: the key credentials are encrypted with; when unset, one is generated once
    into ``<user folder>/config``. It must stay the same for the life of the database."""
    host: str = "127.0.0.1"
    """``WEFT_HOST``: the address the server listens on."""
    port: int = 5678
    """``WEFT_PORT``: the port the server listens on."""
    public_url: str = ""
    """``WEFT_PUBLIC_URL`` (n8n's ``WEBHOOK_URL``): the base URL callers reach the server at; empty when unset, and
    then :attr:`base_url` is made of ``WEFT_HOST`` and ``WEFT_PORT``. Read :attr:`base_url`, not this."""
    executions_data_prune: bool = True
    """``WEFT_EXECUTIONS_DATA_PRUNE``: whether finished executions are pruned by age and count."""
    executions_data_max_age: int = 336
    """``WEFT_EXECUTIONS_DATA_MAX_AGE``: hours after which a finished execution is pruned."""
    executions_data_prune_max_count: int = 10000
    """``WEFT_EXECUTIONS_DATA_PRUNE_MAX_COUNT``: finished executions kept at most; ``0`` for no limit."""
    save_data_on_success: str = "all"
    """``WEFT_EXECUTIONS_DATA_SAVE_ON_SUCCESS`` (``all``/``none``): the default of a workflow's
    ``saveDataSuccessExecution``."""
    save_data_on_error: str = "all"
    """``WEFT_EXECUTIONS_DATA_SAVE_ON_ERROR`` (``all``/``none``): the default of ``saveDataErrorExecution``."""
    save_manual_executions: bool = True
    """``WEFT_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS``: the default of ``saveManualExecutions``."""
    execution_timeout: float | None = None
    """``WEFT_EXECUTION_TIMEOUT``: seconds after which any execution is cancelled; unset or ``-1`` for none.
    A workflow's ``settings.executionTimeout`` takes precedence."""
    graceful_shutdown_timeout: float = 10
    """``WEFT_GRACEFUL_SHUTDOWN_TIMEOUT``: seconds a stopping server lets running executions finish before it stops
    them (n8n's ``N8N_GRACEFUL_SHUTDOWN_TIMEOUT``)."""
    max_node_runs: int | None = 100_000
    """``WEFT_MAX_NODE_RUNS``: node runs one execution may make before it ends in error; ``0`` for no cap."""
    expression_timeout: float = 5
    """``WEFT_EXPRESSION_TIMEOUT``: seconds one expression may run (n8n has no limit; see docs/differences.md)."""
    code_timeout: float = 300
    """``WEFT_CODE_TIMEOUT``: seconds one Code node run may take, all items together (n8n's
    ``N8N_RUNNERS_TASK_TIMEOUT``, 300)."""
    execution_items_max: int | None = 500_000
    """``WEFT_EXECUTION_ITEMS_MAX``: items one node run may output, all its outputs together, before the execution
    ends in error (n8n has no cap); ``0`` for no cap. A webhook body of a million small items would otherwise hold
    gigabytes of run data."""
    regex_timeout: float = 1
    """``WEFT_REGEX_TIMEOUT``: seconds one match of a workflow's regular expression may take when RE2 cannot run it
    (backreferences, lookaround); patterns RE2 runs take linear time and need no limit."""
    code_workers: int = 5
    """``WEFT_CODE_WORKERS``: threads that run Code nodes and long expressions at once (n8n's
    ``N8N_RUNNERS_MAX_CONCURRENCY``, 5); more wait for a free one."""
    block_env_access_in_node: bool = True
    """``WEFT_BLOCK_ENV_ACCESS_IN_NODE``: when true, expressions and Code nodes cannot read ``$env``."""
    demo_nodes: bool = False
    """``WEFT_DEMO_NODES`` (beyond n8n): offer Weft's keyless demo and test models, the Scripted Chat Model
    (``weft.lmChatScripted``), the Demo Chat Model (``weft.lmChatDemo``) and Demo Embeddings (``weft.embeddingsDemo``):
    in the editor's node panel, ``GET /rest/node-types``, and to workflows. Off, a workflow using one is refused with
    an error naming the node and this setting. ``scripts/demo`` turns it on for itself."""
    executions_mode: str = "regular"
    """``WEFT_EXECUTIONS_MODE`` (n8n's ``EXECUTIONS_MODE``): ``regular`` runs executions in the process that starts
    them; ``queue`` hands them to ``weft worker`` processes (PostgreSQL only; docs/queue-mode.md)."""
    queue_lease_seconds: float = 10
    """``WEFT_QUEUE_LEASE_SECONDS``: how long a worker's hold on an execution lasts unless renewed (every third of
    it); a worker silent that long is taken for dead and its executions resume on another worker."""
    queue_tools_on_workers: bool = False
    """``WEFT_QUEUE_TOOLS_ON_WORKERS``: in queue mode, the tool nodes an agent requests (converted nodes: HTTP Request
    Tool, Postgres Tool, …) may run on any worker, not only on the one that runs the agent (beyond n8n)."""
    save_execution_progress: bool = False
    """``WEFT_EXECUTIONS_DATA_SAVE_ON_PROGRESS`` (n8n's ``EXECUTIONS_DATA_SAVE_ON_PROGRESS``): the default of a
    workflow's ``saveExecutionProgress``: save the run data after each node, so that in queue mode an execution
    whose worker died resumes from its last saved node (otherwise from its start)."""

    payload_size_max: float = 16
    """``WEFT_PAYLOAD_SIZE_MAX``: the largest request body accepted, in MiB (n8n's ``N8N_PAYLOAD_SIZE_MAX``, 16)."""
    json_depth_max: int = 900
    """``WEFT_JSON_DEPTH_MAX``: the deepest nesting of arrays and objects accepted in a JSON body or file."""
    session_duration_hours: float = 168
    """``WEFT_SESSION_DURATION_HOURS``: how long a login lasts (n8n's ``N8N_USER_MANAGEMENT_JWT_DURATION_HOURS``)."""
    allowed_hosts: tuple[str, ...] = ()
    """``WEFT_ALLOWED_HOSTS`` (comma-separated): ``Host`` header values accepted besides the public URL's host,
    ``localhost``, ``127.0.0.1`` and ``[::1]``; ``*`` accepts any (behind a proxy that checks it)."""
    secure_cookie: bool = False
    """``WEFT_SECURE_COOKIE``: mark the session cookie ``Secure`` (set it when the public URL is https)."""
    proxy_hops: int = 0
    """``WEFT_PROXY_HOPS`` (n8n's ``N8N_PROXY_HOPS``, 0): reverse proxies in front of Weft. ``0`` takes the caller's
    address from the connection and ignores ``X-Forwarded-For``; ``n`` takes the address ``n`` hops from the right of
    ``X-Forwarded-For`` (express's ``trust proxy``), for the Webhook node's ``ipWhitelist`` and the login limits."""
    insecure_disable_webhook_iframe_sandbox: bool = False
    """``WEFT_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX`` (n8n's ``N8N_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX``): when
    true, HTML answered by webhooks is no longer sandboxed (``Content-Security-Policy: sandbox …``) and its script
    runs on the editor's origin, with the rights of whoever opens the link."""

    binary_data_mode: str = "filesystem"
    """``WEFT_BINARY_DATA_MODE`` (n8n's ``N8N_DEFAULT_BINARY_DATA_MODE``): where the bytes of files that nodes make
    are kept: ``filesystem`` (n8n 2's default), ``database`` (the default in queue mode), or ``default`` (in the
    items, in memory)."""
    binary_data_storage_path: Path | None = None
    """``WEFT_BINARY_DATA_STORAGE_PATH``: the folder of the ``filesystem`` mode; ``<user folder>/storage`` when
    unset."""

    binary_data_database_max_file_size: float = 512
    """``WEFT_BINARY_DATA_DATABASE_MAX_FILE_SIZE``: the largest file the ``database`` mode stores, in MiB (n8n's
    ``N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE``, 512)."""

    restrict_file_access_to: str = "~/.weft-files"
    """``WEFT_RESTRICT_FILE_ACCESS_TO`` (n8n's ``N8N_RESTRICT_FILE_ACCESS_TO``, ``~/.n8n-files``): the ``;``-separated
    folders file nodes may read and write; empty for anywhere not blocked."""
    block_file_access_to_weft_files: bool = True
    """``WEFT_BLOCK_FILE_ACCESS_TO_WEFT_FILES`` (n8n's ``N8N_BLOCK_FILE_ACCESS_TO_N8N_FILES``): keep file nodes out of
    the user folder, the SQLite database, the config file and the binary-data folder."""
    block_file_patterns: str = r"^(?:[^/]*/)*\.git(?:/.*)?$"
    """``WEFT_BLOCK_FILE_PATTERNS`` (n8n's ``N8N_BLOCK_FILE_PATTERNS``): ``;``-separated regular expressions of paths
    file nodes may not touch (any ``.git`` folder)."""
    compression_max_decompressed_size: int = 2 * 1024 * 1024 * 1024
    """``WEFT_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES``: the most one archive may unpack to (n8n's, 2 GiB)."""
    compression_max_zip_entries: int = 5000
    """``WEFT_COMPRESSION_NODE_MAX_ZIP_ENTRIES``: the most files one archive may hold (n8n's, 5000)."""

    @property
    def weft_files(self) -> tuple[str, ...]:
        """Weft's own files, blocked to file nodes: user folder, SQLite database, binary-data folder."""
        if not self.block_file_access_to_weft_files:
            return ()
        own = [self.user_folder, self.binary_storage_folder]
        if self.database_url.startswith("sqlite:///"):
            own.append(Path(self.database_url.removeprefix("sqlite:///")))
        return tuple(str(path) for path in own)

    @property
    def base_url(self) -> str:
        """The base of every link the server gives out, ending in ``/``: see :func:`instance_base_url`."""
        return instance_base_url(self.public_url, self.host, self.port)

    @property
    def binary_storage_folder(self) -> Path:
        return self.binary_data_storage_path or self.user_folder / "storage"

    @property
    def payload_size_max_bytes(self) -> int:
        return int(self.payload_size_max * 1024 * 1024)

    def __post_init__(self) -> None:
        if not self.database_url:
            object.__setattr__(self, "database_url", f"sqlite:///{self.user_folder / 'database.sqlite'}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``environ`` (default ``os.environ``); unset variables take the defaults."""
        env = os.environ if environ is None else environ
        folder = Path(env.get("WEFT_USER_FOLDER") or "~/.weft").expanduser()
        return cls(
            user_folder=folder,
            database_url=env.get("WEFT_DATABASE_URL", ""),
            encryption_key=env.get("WEFT_ENCRYPTION_KEY") or None,
            host=env.get("WEFT_HOST", "127.0.0.1"),
            port=_int(env, "WEFT_PORT", 5678),
            public_url=_url(env.get("WEFT_PUBLIC_URL", "").strip()),
            executions_data_prune=_bool(env, "WEFT_EXECUTIONS_DATA_PRUNE", True),
            executions_data_max_age=_int(env, "WEFT_EXECUTIONS_DATA_MAX_AGE", 336),
            executions_data_prune_max_count=_int(env, "WEFT_EXECUTIONS_DATA_PRUNE_MAX_COUNT", 10000),
            save_data_on_success=_choice(env, "WEFT_EXECUTIONS_DATA_SAVE_ON_SUCCESS", "all", {"all", "none"}),
            save_data_on_error=_choice(env, "WEFT_EXECUTIONS_DATA_SAVE_ON_ERROR", "all", {"all", "none"}),
            save_manual_executions=_bool(env, "WEFT_EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS", True),
            execution_timeout=_timeout(env, "WEFT_EXECUTION_TIMEOUT"),
            max_node_runs=_int(env, "WEFT_MAX_NODE_RUNS", 100_000) or None,
            graceful_shutdown_timeout=_positive(env, "WEFT_GRACEFUL_SHUTDOWN_TIMEOUT", 10),
            expression_timeout=_positive(env, "WEFT_EXPRESSION_TIMEOUT", 5),
            code_timeout=_positive(env, "WEFT_CODE_TIMEOUT", 300),
            execution_items_max=_int(env, "WEFT_EXECUTION_ITEMS_MAX", 500_000) or None,
            regex_timeout=_positive(env, "WEFT_REGEX_TIMEOUT", 1),
            code_workers=max(1, _int(env, "WEFT_CODE_WORKERS", 5)),
            block_env_access_in_node=_bool(env, "WEFT_BLOCK_ENV_ACCESS_IN_NODE", True),
            demo_nodes=demo_nodes_from_env(env),
            executions_mode=_choice(env, "WEFT_EXECUTIONS_MODE", "regular", {"regular", "queue"}),
            queue_lease_seconds=_positive(env, "WEFT_QUEUE_LEASE_SECONDS", 10),
            save_execution_progress=_bool(env, "WEFT_EXECUTIONS_DATA_SAVE_ON_PROGRESS", False),
            queue_tools_on_workers=_bool(env, "WEFT_QUEUE_TOOLS_ON_WORKERS", False),
            payload_size_max=_positive(env, "WEFT_PAYLOAD_SIZE_MAX", 16),
            json_depth_max=_int(env, "WEFT_JSON_DEPTH_MAX", 900),
            session_duration_hours=_positive(env, "WEFT_SESSION_DURATION_HOURS", 168),
            allowed_hosts=tuple(h.strip().lower() for h in env.get("WEFT_ALLOWED_HOSTS", "").split(",") if h.strip()),
            binary_data_mode=_choice(
                env, "WEFT_BINARY_DATA_MODE", _binary_default(env), {"default", "filesystem", "database"}
            ),
            binary_data_storage_path=Path(env["WEFT_BINARY_DATA_STORAGE_PATH"]).expanduser()
            if env.get("WEFT_BINARY_DATA_STORAGE_PATH")
            else None,
            binary_data_database_max_file_size=_positive(env, "WEFT_BINARY_DATA_DATABASE_MAX_FILE_SIZE", 512),
            restrict_file_access_to=env.get("WEFT_RESTRICT_FILE_ACCESS_TO", "~/.weft-files"),
            block_file_access_to_weft_files=_bool(env, "WEFT_BLOCK_FILE_ACCESS_TO_WEFT_FILES", True),
            block_file_patterns=env.get("WEFT_BLOCK_FILE_PATTERNS", r"^(?:[^/]*/)*\.git(?:/.*)?$"),
            compression_max_decompressed_size=_int(
                env, "WEFT_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES", 2 * 1024 * 1024 * 1024
            ),
            compression_max_zip_entries=_int(env, "WEFT_COMPRESSION_NODE_MAX_ZIP_ENTRIES", 5000),
            secure_cookie=_bool(env, "WEFT_SECURE_COOKIE", _url(env.get("WEFT_PUBLIC_URL", "")).startswith("https:")),
            proxy_hops=_hops(env, "WEFT_PROXY_HOPS"),
            insecure_disable_webhook_iframe_sandbox=_bool(env, "WEFT_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX", False),
        )


#: Listening addresses that are no address to connect to: links name ``localhost`` instead (n8n's ``N8N_HOST``).
_ANY_ADDRESS = frozenset({"", "0.0.0.0", "::", "[::]"})


def instance_base_url(public_url: str, host: str, port: int) -> str:
    """The base URL of every link Weft gives out, ending in ``/``: resume and approval links (``$execution.resumeUrl``,
    ``resumeFormUrl``, send-and-wait buttons), form, chat and webhook URLs, the hints the server prints.

    As n8n's ``WEBHOOK_URL`` or else ``N8N_PROTOCOL://N8N_HOST:N8N_PORT/``: ``public_url`` (``WEFT_PUBLIC_URL``) when
    set, else ``http://<host>:<port>/`` of the address the server listens on, so a server on another port links to
    itself. ``localhost`` stands for a server listening on every address (``0.0.0.0``, ``::``), an IPv6 address is
    bracketed, and port 80 is left out.
    """
    if public_url:
        return _url(public_url)
    name = host.strip()
    if name in _ANY_ADDRESS:
        name = "localhost"
    elif ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return f"http://{name}/" if port == 80 else f"http://{name}:{port}/"


def demo_nodes_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """``WEFT_DEMO_NODES`` alone (:attr:`Settings.demo_nodes`), for the CLI to read before any command runs."""
    return _bool(os.environ if environ is None else environ, "WEFT_DEMO_NODES", False)


def _binary_default(env: Mapping[str, str]) -> str:
    """``filesystem``, or in queue mode ``database``: workers on other machines must read what a main stored."""
    return "database" if env.get("WEFT_EXECUTIONS_MODE") == "queue" else "filesystem"


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not a whole number; set it to e.g. {default}.") from None


def _hops(env: Mapping[str, str], name: str) -> int:
    hops = _int(env, name, 0)
    if hops < 0:
        raise ConfigurationError(f"{name}={hops} is negative; set it to the number of proxies in front of Weft, or 0.")
    return hops


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigurationError(f"{name}={raw!r} is not a boolean; set it to 'true' or 'false'.")


def _choice(env: Mapping[str, str], name: str, default: str, allowed: set[str]) -> str:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if raw not in allowed:
        raise ConfigurationError(f"{name}={raw!r} is not one of {sorted(allowed)!r}.")
    return raw


def _timeout(env: Mapping[str, str], name: str) -> float | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise ConfigurationError(f"{name}={raw!r} is not a number of seconds; use -1 for no timeout.") from None
    return None if value <= 0 else value


def _positive(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise ConfigurationError(f"{name}={raw!r} is not a positive number; set it to e.g. {default:g}.")
    return value


def _url(raw: str) -> str:
    """``raw`` ending in ``/``; empty stays empty (unset)."""
    return raw if not raw or raw.endswith("/") else raw + "/"


__all__ = ["Settings", "demo_nodes_from_env", "instance_base_url"]
