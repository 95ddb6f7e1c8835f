"""``weft execute --file wf.json [--json]``: run a workflow once and report it."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

from weft.errors import WorkflowDefinitionError


def register(commands: Any) -> None:
    cmd = commands.add_parser("execute", help="run a workflow file once", description=__doc__)
    cmd.add_argument("--file", required=True, help="n8n workflow JSON file")
    cmd.add_argument("--json", action="store_true", help="print exactly n8n's IRun JSON on stdout and nothing else")
    cmd.add_argument("--start-node", help="node to start from (default: the workflow's trigger)")
    cmd.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    from weft.nodes.registry import default_registry
    from weft.workflow import Workflow, load_workflow, validate_workflow

    registry = default_registry()
    try:
        model = load_workflow(args.file)
        validate_workflow(model, registry)
    except WorkflowDefinitionError as exc:
        print(f"weft: cannot load {args.file}: {exc}", file=sys.stderr)
        return 2
    run = asyncio.run(_run(Workflow(model), registry, args.start_node))
    if args.json:
        sys.stdout.write(dumps_indented(run) + "\n")
    else:
        print(format_summary(run))
    return 1 if run["status"] in ("error", "canceled", "crashed") else 0


async def _run(workflow: Any, registry: Any, start_node: str | None) -> Any:
    """Run as a stored execution (mode ``cli``) in the instance's database; in-process only if it cannot open."""
    from weft.errors import WeftError
    from weft.settings import Settings

    try:
        settings = Settings.from_env()
        lite = _open_lite(settings)
        if lite is not None:
            runner = _LiteRun(*lite, settings, registry)
        else:
            from weft.services.import_export import open_store

            store = await asyncio.to_thread(open_store, settings)
    except (WeftError, OSError, ImportError) as exc:
        print(f"weft: the execution is not recorded: cannot open the database ({exc})", file=sys.stderr)
        return await _run_in_process(workflow, registry, start_node)
    if lite is not None:
        return await runner.run(workflow, start_node)
    try:
        return await _run_recorded(store, settings, workflow, registry, start_node)
    finally:
        store.close()


def _open_lite(settings: Any) -> tuple[Any, str] | None:
    """The stdlib writer and the encryption key when the database is a SQLite file at the head revision (the
    common case, see :mod:`weft.db.lite`); ``None`` when the full store is needed."""
    from weft.db.cipher import load_encryption_key
    from weft.db.lite import LiteExecutions

    lite = LiteExecutions.open(settings.database_url)
    if lite is None:
        return None
    try:
        return lite, load_encryption_key(settings.user_folder, settings.encryption_key)  # as open_store does
    except BaseException:
        lite.close()
        raise


async def _run_recorded(store: Any, settings: Any, workflow: Any, registry: Any, start_node: str | None) -> Any:
    from weft.services.prepared import PreparedWorkflow
    from weft.services.runner import WorkflowRunner
    from weft.workflow import dump_workflow

    runner = WorkflowRunner(store, settings, registry, inline_db=True)
    prepared = PreparedWorkflow(id=workflow.id, version_id=None, data=dump_workflow(workflow.model), workflow=workflow)
    try:
        result = await runner.run(prepared, mode="cli", start_node=start_node)
        await runner.drain()
    finally:
        runner.close()
    return result.run


async def _run_in_process(workflow: Any, registry: Any, start_node: str | None) -> Any:
    from weft.engine import Execution
    from weft.engine.services import LocalServices

    execution = Execution(workflow, registry=registry, mode="cli", services=LocalServices(registry=registry))
    return await execution.run(start_node=start_node)


class _LiteRun:
    """``WorkflowRunner.run(mode="cli")`` on :class:`~weft.db.lite.LiteExecutions`: the same rows, hooks and options.

    The full store (SQLAlchemy) is opened only if a node asks for what needs it: credentials, sub-workflows.
    """

    def __init__(self, lite: Any, key: str, settings: Any, registry: Any) -> None:
        from weft.db.save_policy import SaveDefaults
        from weft.engine import EngineOptions
        from weft.services.signing import ResumeSigner
        from weft.services.write_lock import sqlite_write_lock

        self.lite = lite
        self.settings = settings
        self.registry = registry
        signer = ResumeSigner.from_encryption_key(key)
        self.save_defaults = SaveDefaults(
            success=settings.save_data_on_success,
            error=settings.save_data_on_error,
            manual=settings.save_manual_executions,
        )
        self.options = EngineOptions(
            allow_env=not settings.block_env_access_in_node,
            resume_url_base=settings.public_url.rstrip("/") + "/webhook-waiting",
            sign_resume_url=signer.sign,
        )
        self.write_lock = sqlite_write_lock(settings.database_url)

    def write(self, call: Any, *args: Any, **kwargs: Any) -> Any:
        """A write, one writer at a time across the instance's processes (as ``WorkflowRunner.db_write``)."""
        if self.write_lock is None:
            return call(*args, **kwargs)
        with self.write_lock.held():
            return call(*args, **kwargs)

    async def run(self, workflow: Any, start_node: str | None) -> Any:
        from weft.workflow import dump_workflow

        services: _StoreOnDemand | None = None
        try:
            data = dump_workflow(workflow.model)
            execution_id = self.write(self.lite.create, data, "cli", "running")
            services = _StoreOnDemand(self.settings, self.registry, execution_id)
            execution = self._execution(workflow, data, execution_id, services)
            run = await self._drive(execution, workflow, start_node)
            await services.drain()
            return run
        finally:
            if services is not None:
                services.close()
            if self.write_lock is not None:
                self.write_lock.close()
            self.lite.close()

    def _execution(self, workflow: Any, data: dict[str, Any], execution_id: str, services: Any) -> Any:
        from weft.engine import Execution, ExecutionHooks

        workflow_settings = dict(data.get("settings") or {})
        hooks = ExecutionHooks()

        async def save(run: Any, _: Any) -> None:
            self.write(
                self.lite.finish, execution_id, run, workflow_settings=workflow_settings, defaults=self.save_defaults
            )

        hooks.on("workflowExecuteAfter", save)
        return Execution(
            workflow,
            registry=self.registry,
            mode="cli",
            hooks=hooks,
            services=services,
            execution_id=execution_id,
            options=self.options,
        )

    async def _drive(self, execution: Any, workflow: Any, start_node: str | None) -> Any:
        from weft.errors import TimeoutExecutionCancelledError

        timeout = self.settings.execution_timeout
        timer = None
        if timeout is not None and workflow.settings.executionTimeout is None:
            timer = asyncio.get_running_loop().call_later(
                timeout, execution.cancel, TimeoutExecutionCancelledError(timeout)
            )
        try:
            return await execution.run(start_node=start_node)
        except BaseException:
            self.write(self.lite.set_status, execution.execution_id, "crashed", expected={"running"})
            raise
        finally:
            if timer is not None:
                timer.cancel()


class _StoreOnDemand:
    """The execution's ``DbServices``, built on the full store the first time a node needs one."""

    def __init__(self, settings: Any, registry: Any, execution_id: str) -> None:
        self.settings = settings
        self.registry = registry
        self.execution_id = execution_id
        self.responded = False
        self._store: Any = None
        self._runner: Any = None
        self._services: Any = None

    def _full(self) -> Any:
        if self._services is None:
            from weft.services.db_services import DbServices
            from weft.services.import_export import open_store
            from weft.services.runner import WorkflowRunner

            self._store = open_store(self.settings)
            self._runner = WorkflowRunner(self._store, self.settings, self.registry, inline_db=True)
            self._services = DbServices(self._runner, execution_id=self.execution_id)
        return self._services

    async def execute_workflow(self, ctx: Any, workflow: Any, items: list[Any], *, wait: bool = True) -> Any:
        return await self._full().execute_workflow(ctx, workflow, items, wait=wait)

    async def get_credentials(self, ctx: Any, credential_type: str) -> dict[str, Any]:
        result: dict[str, Any] = await self._full().get_credentials(ctx, credential_type)
        return result

    def send_webhook_response(self, response: Any) -> None:
        """No HTTP request waits for a CLI execution (``DbServices`` without a response sink)."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._full(), name)

    async def drain(self) -> None:
        if self._runner is not None:
            await self._runner.drain()

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
        if self._store is not None:
            self._store.close()


_CONTAINERS = (dict, list, tuple)
_encoders: dict[int, Any] = {}


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, byte for byte, several times faster on large runs.

    With ``indent``, :mod:`json` encodes in Python; without, in C. Containers whose children are all scalars
    (most of a run's items) go to the C encoder with a separator that carries the newline and the indentation
    of their depth; only the containers above them are walked here.
    """
    parts: list[str] = []
    _encode(value, 0, parts)
    return "".join(parts)


def _flat_encoder(depth: int) -> Any:
    """``encode(value) -> str`` for one line per child at ``depth`` (no newline after the opening bracket)."""
    encoder = _encoders.get(depth)
    if encoder is None:
        separator = ",\n" + "  " * depth
        if c_make_encoder is not None:
            chunks = c_make_encoder(
                None, json.JSONEncoder().default, encode_basestring, None, ": ", separator, False, False, True
            )
            encoder = _encoders[depth] = lambda value: "".join(chunks(value, 0))
        else:  # pragma: no cover - CPython always has the C encoder
            encoder = _encoders[depth] = json.JSONEncoder(ensure_ascii=False, separators=(separator, ": ")).encode
    return encoder


def _encode(value: Any, depth: int, parts: list[str]) -> None:
    if not isinstance(value, _CONTAINERS) or not value:
        parts.append(_flat_encoder(0)(value))
        return
    container: Any = value
    is_dict = isinstance(container, dict)
    indent = "\n" + "  " * (depth + 1)
    for child in container.values() if is_dict else container:
        if child and isinstance(child, _CONTAINERS):
            break
    else:  # only scalars and empty containers, which the C encoder writes as the indenting one does
        text = _flat_encoder(depth + 1)(value)
        parts.append(f"{text[0]}{indent}{text[1:-1]}\n{'  ' * depth}{text[-1]}")
        return
    parts.append("{" if is_dict else "[")
    separator = indent
    for key, child in container.items() if is_dict else enumerate(container):
        parts.append(separator)
        separator = "," + indent
        if is_dict:
            parts.append(_encode_key(key))
        _encode(child, depth + 1, parts)
    parts.append(f"\n{'  ' * depth}{'}' if is_dict else ']'}")


def _encode_key(key: Any) -> str:
    """The key and ``: ``, as :mod:`json` writes them (numbers, booleans and ``None`` become strings)."""
    if type(key) is str:
        return f"{encode_basestring(key)}: "
    return json.dumps({key: None}, ensure_ascii=False)[1:-5]


def format_summary(run: Any) -> str:
    """One line per node run, in execution order, then the outcome and the last node's output."""
    rows = []
    for name, tasks in run["data"]["resultData"]["runData"].items():
        for index, task in enumerate(tasks):
            outputs: list[Any] = next(iter((task.get("data") or {}).values()), [])
            counts = "/".join(str(len(items or [])) for items in outputs) or "0"
            status = task.get("executionStatus", "?")
            time_ms = task.get("executionTime", 0)
            row = f"  {name}  run {index}  {status:<8} items out {counts}  {time_ms} ms"
            rows.append((task.get("executionIndex", 0), row))
    lines = [row for _, row in sorted(rows)]
    result = run["data"]["resultData"]
    last = result.get("lastNodeExecuted")
    lines.append(f"Execution {run['status']}" + (f" at node {last!r}" if last else ""))
    if result.get("error"):
        lines.append(f"Error: {result['error'].get('message')}")
    if run["status"] == "waiting":
        lines.append(f"Waiting until {run.get('waitTill')}: resume it through the server ('weft start').")
    elif run["status"] == "success" and last:
        lines.extend(_last_output(result["runData"][last][-1], last))
    return "\n".join(lines)


def _last_output(task: Any, name: str, limit: int = 3) -> list[str]:
    """The first items of the last node's first output, one JSON line each."""
    items = ((task.get("data") or {}).get("main") or [[]])[0] or []
    lines = [f"Output of {name!r} ({len(items)} item{'s' if len(items) != 1 else ''}):"]
    for item in items[:limit]:
        text = json.dumps(item.get("json"), ensure_ascii=False)
        lines.append("  " + (text if len(text) <= 300 else text[:297] + "..."))
    if len(items) > limit:
        lines.append(f"  … {len(items) - limit} more")
    return lines
