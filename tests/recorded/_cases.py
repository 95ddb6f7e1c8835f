"""The recorded cases on disk, what Weft is held to for each, and running one through Weft."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from weft.binary import BinaryDataService
from weft.binary.filesystem import FilesystemManager
from weft.engine import Execution
from weft.engine.options import EngineOptions
from weft.engine.services import LocalServices
from weft.engine.start import find_called_start
from weft.expressions import ExpressionLimits
from weft.nodes.files.access import FileAccess
from weft.nodes.registry import default_registry
from weft.testing import OracleOpenAIServer
from weft.testing.mcp_server import McpTestServer
from weft.testing.saas import FakeSaasServer
from weft.workflow import Workflow, parse_workflow, validate_workflow
from weft.workflow.jsjson import pretty_json

from ._normalize import normalize_requests, normalize_run
from ._services import service_credentials

CASES = Path(__file__).resolve().parent / "cases"
#: The credential every AI case's OpenAI Chat Model names.
CREDENTIAL = {"id": "accFakeOpenAi0001", "name": "Fake OpenAI (acceptance)", "type": "openAiApi"}
#: Where the oracle served its MCP server for cases with a ``uses_mcp`` file.
ORACLE_MCP_URL = "http://127.0.0.1:18282/mcp"


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@dataclass(frozen=True)
class Case:
    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    def file(self, name: str) -> Path:
        return self.folder / name

    @cached_property
    def workflow(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.file("workflow.json").read_text())
        return data

    @property
    def is_ai(self) -> bool:
        return self.file("llm_script.json").exists()

    @property
    def recorded(self) -> bool:
        return self.file("n8n_raw.json").exists()

    @cached_property
    def tolerance(self) -> dict[str, Any]:
        path = self.file("tolerance.json")
        return json.loads(path.read_text()) if path.exists() else {}

    # ------------------------------------------------------------------ what Weft is held to

    def expected_run(self) -> tuple[str, dict[str, Any]]:
        """(source, normalized run): a deliberate difference, else n8n 2.41.1 where it differs, else 2.8.4."""
        if self.file("expected_weft.json").exists():
            return "expected_weft.json", json.loads(self.file("expected_weft.json").read_text())
        for name in ("n8n_2.41_raw.json", "n8n_raw.json"):
            if self.file(name).exists():
                return name, normalize_run(json.loads(self.file(name).read_text()))
        raise FileNotFoundError(f"case {self.name} has no recording; record it (tests/recorded/README.md)")

    def expected_requests(self) -> tuple[str, list[dict[str, Any]]]:
        if self.file("expected_llm_weft.json").exists():
            return "expected_llm_weft.json", json.loads(self.file("expected_llm_weft.json").read_text())
        for name in ("n8n_2.41_llm_requests.jsonl", "n8n_llm_requests.jsonl"):
            if self.file(name).exists():
                return name, normalize_requests(_jsonl(self.file(name)))
        raise FileNotFoundError(f"AI case {self.name} has no recorded model requests")


def all_cases() -> list[Case]:
    return sorted(
        (Case(folder) for folder in CASES.iterdir() if (folder / "workflow.json").exists()), key=lambda c: c.name
    )


async def run_with_weft(case: Case) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Weft's IRun for the case, as ``weft execute --json`` prints it (mode ``cli``), and the model-request log."""
    if case.file("uses_mcp").exists():  # the oracle's MCP server, served by Weft's own on a free port
        with McpTestServer() as mcp:
            text = json.dumps(case.workflow).replace(ORACLE_MCP_URL, mcp.url)
            return await _run_with_weft(case, json.loads(text))
    return await _run_with_weft(case, case.workflow)


async def _run_with_weft(case: Case, workflow: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    registry = default_registry()
    model = parse_workflow(workflow, source=str(case.file("workflow.json")))
    validate_workflow(model, registry)
    if not case.is_ai:
        credentials = {**service_credentials(case.folder), **saas_credentials(case.folder)}
        with saas_proxy(case.folder):
            return await _execute(Workflow(model), registry, credentials, engine_options(case)), []
    script = json.loads(case.file("llm_script.json").read_text())
    with OracleOpenAIServer(script) as server, saas_proxy(case.folder):  # an agent's tools may call the fakes
        data = {"apiKey": "sk-fake-acceptance", "url": server.base_url, "header": False}
        credentials = {**service_credentials(case.folder), **saas_credentials(case.folder)}
        credentials.update({CREDENTIAL["name"]: data, CREDENTIAL["type"]: data})
        run = await _execute(Workflow(model), registry, credentials)
        return run, list(server.log)


def saas_credentials(folder: Path) -> dict[str, Any]:
    """``{credential name: data}`` of ``saas_credentials.json`` (the credentials n8n was recorded with, imported by
    hand: ``n8n import:credentials``) for a case that calls the fake SaaS APIs (a ``uses_saas`` file)."""
    if not (folder / "uses_saas").exists():
        return {}
    root = folder.parent.parent
    listed = json.loads((root / "saas_credentials.json").read_text())
    for path in sorted((root / "saas_credentials").glob("*.json")):  # one file per service
        listed.extend(json.loads(path.read_text()))
    return {entry["name"]: entry["data"] for entry in listed}


#: The fake SaaS server the session started (``conftest.recorded_saas``).
SAAS_SERVER: list[FakeSaasServer] = []


@contextlib.contextmanager
def saas_proxy(folder: Path) -> Iterator[None]:
    """For a ``uses_saas`` case, the environment n8n was recorded with: the fake SaaS server as the HTTPS proxy of
    every API host (``sheets.googleapis.com``, ...), its CA trusted (:meth:`FakeSaasServer.proxy_env`)."""
    if not (folder / "uses_saas").exists():
        yield
        return
    env = SAAS_SERVER[0].proxy_env()
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def engine_options(case: Case) -> EngineOptions:
    """The settings n8n was recorded with (``n8n_env.json``), as Weft's: ``N8N_RUNNERS_TASK_TIMEOUT``."""
    path = case.file("n8n_env.json")
    env: dict[str, str] = json.loads(path.read_text()) if path.exists() else {}
    limits = ExpressionLimits()
    if "N8N_RUNNERS_TASK_TIMEOUT" in env:
        limits = ExpressionLimits(code_time_s=float(env["N8N_RUNNERS_TASK_TIMEOUT"]))
    access = FileAccess()  # N8N_RESTRICT_FILE_ACCESS_TO: the folder the file cases read and write
    if "N8N_RESTRICT_FILE_ACCESS_TO" in env:
        access = FileAccess.from_settings(env["N8N_RESTRICT_FILE_ACCESS_TO"])
    return EngineOptions(expression_limits=limits, binary_data=binary_service(env), file_access=access)


def binary_service(env: dict[str, str]) -> BinaryDataService:
    """n8n's binary-data mode of the recording (``N8N_DEFAULT_BINARY_DATA_MODE``, n8n 2's default ``filesystem``),
    files in a fresh folder."""
    mode = env.get("N8N_DEFAULT_BINARY_DATA_MODE", "filesystem")
    folder = Path(tempfile.mkdtemp(prefix="weft-recorded-binary-"))
    return BinaryDataService(mode, {"filesystem": FilesystemManager(folder)})


async def _execute(
    workflow: Workflow, registry: Any, credentials: dict[str, Any], options: EngineOptions | None = None
) -> dict[str, Any]:
    services = LocalServices(credentials=credentials, registry=registry)
    start = find_called_start(workflow)  # as weft execute (n8n's findCliWorkflowStart)
    execution = Execution(workflow, registry=registry, mode="cli", services=services, options=options)
    run = await execution.run(start_node=start)
    await services.wait_background()
    printed: dict[str, Any] = json.loads(pretty_json(run))  # through the CLI's JSON writer, as printed
    return printed
