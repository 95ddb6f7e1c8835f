"""Real-world-shaped workflows (``realworld/``): sticky notes, legacy nodes, old type versions, a numeric id, a
disabled node, and files that go through the binary-data store and the disk, run as a user runs them
(``weft execute --json``). Where n8n 2.41.1 could run one (``<name>.n8n-2.41.json``, its IRun recorded with the
n8n oracle, file paths under ``/tmp/rwrec/``), Weft's run is compared with it in the recorded suite's normalized
form, binary entries included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.recorded._normalize import diff, normalize_run, render, run_binaries

from weft.nodes.registry import default_registry
from weft.workflow import dump_workflow, parse_workflow, validate_workflow

HERE = Path(__file__).parent / "realworld"
WORKFLOWS = sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".n8n-2.41.json"))
#: The folder the workflows name for their files; each test gives it a fresh one.
DATA = "/data/"
#: Where the files were while n8n ran them.
RECORDED_DATA = "/tmp/rwrec/"
#: Differences n8n's own libraries make unavoidable (documented in docs/differences.md): an XLSX file written by
#: openpyxl is not SheetJS's byte for byte.
TOLERATED = {"spreadsheet_roundtrip": ("fileSize", "bytes")}


def _run(workflow: Path, tmp_path: Path) -> dict[str, Any]:
    files = tmp_path / "data"
    (files / "reports").mkdir(parents=True)
    text = workflow.read_text().replace(DATA, f"{files}/")
    copy = tmp_path / workflow.name
    copy.write_text(text)
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(tmp_path / "home"),
        "WEFT_RESTRICT_FILE_ACCESS_TO": str(files),
    }
    done = subprocess.run(
        [sys.executable, "-m", "weft", "execute", "--file", str(copy), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    run: dict[str, Any] = json.loads(done.stdout)
    return run


def _output(run: dict[str, Any], node: str) -> list[dict[str, Any]]:
    task = run["data"]["resultData"]["runData"][node][-1]
    return [item["json"] for item in task["data"]["main"][0]]


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[p.stem for p in WORKFLOWS])
def test_each_workflow_loads_and_round_trips_unchanged(workflow: Path) -> None:
    data = json.loads(workflow.read_text())
    model = parse_workflow(data, source=str(workflow))
    validate_workflow(model, default_registry())  # every node, sticky notes and legacy ones included, is known
    expected = {**data, "id": str(data["id"])}  # a numeric id becomes a string id, as n8n's import stores it
    assert json.loads(json.dumps(dump_workflow(model))) == expected


@pytest.mark.parametrize(
    "workflow",
    [w for w in WORKFLOWS if (HERE / f"{w.stem}.n8n-2.41.json").exists()],
    ids=lambda p: p.stem,
)
def test_weft_runs_it_as_n8n_did(workflow: Path, tmp_path: Path) -> None:
    run = _run(workflow, tmp_path)
    recorded_text = (HERE / f"{workflow.stem}.n8n-2.41.json").read_text()
    recorded = json.loads(recorded_text.replace(RECORDED_DATA, f"{tmp_path / 'data'}/"))
    tolerated = TOLERATED.get(workflow.stem, ())
    differences = [
        d
        for d in diff(normalize_run(recorded), normalize_run(run)) + diff(run_binaries(recorded), run_binaries(run))
        if d[0].rsplit(".", 1)[-1] not in tolerated
    ]
    assert not differences, render(differences)
    for task in run["data"]["resultData"]["runData"].values():  # run data holds references, never the bytes
        for items in (task[0].get("data") or {}).get("main") or []:
            for item in items or []:
                for entry in (item.get("binary") or {}).values():
                    assert entry["data"] == "filesystem-v2" and entry["id"].startswith("filesystem-v2:")


def test_the_csv_report_reaches_the_disk(tmp_path: Path) -> None:
    run = _run(HERE / "csv_report_roundtrip.json", tmp_path)
    written = (tmp_path / "data" / "reports" / "sales.csv").read_text()
    assert written.startswith("\ufeff")  # SheetJS writes a BOM, as n8n's file has
    written = written[1:]
    assert written.splitlines() == ["region,amount,rep", "north,120.5,Ana", "south,80,Bo", "north,40,Cy", "east,300,Di"]
    rows = _output(run, "Parse CSV")  # n8n reads the BOM into the first header, and keeps every value a string
    assert [row["\ufeffregion"] for row in rows] == ["north", "south", "north", "east"]
    assert rows[0]["amount"] == "120.5"


def test_a_legacy_workflow_runs(tmp_path: Path) -> None:
    """A 2021-style workflow n8n 2 cannot start from the CLI (its Start node): numeric id, Function, Function Item,
    Item Lists 3, IF 1 and Set 1, with sticky notes between them."""
    run = _run(HERE / "legacy_article_digest.json", tmp_path)
    assert run["status"] == "success"
    run_data = run["data"]["resultData"]["runData"]
    assert "Sticky Note" not in run_data and "Sticky Note1" not in run_data  # notes never run
    assert [a["slug"] for a in _output(run, "Slug")][:2] == ["queues-in-postgres", "cron-is-hard"]
    assert [a["title"] for a in _output(run, "Top 3")] == ["Queues in Postgres", "Binary data in n8n", "Cron is hard"]
    popular = _output(run, "Mark popular")
    assert [p["line"] for p in popular] == ["* Queues in Postgres (920)", "* Binary data in n8n (430)"]
    assert all(p["popular"] is True and p["views"] >= 400 for p in popular)  # Set 1 keeps the other fields
    assert _output(run, "Mark quiet") == [{"line": "- Cron is hard"}]  # keepOnlySet
