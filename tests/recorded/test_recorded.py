"""Weft against what real n8n did: every recorded case, normalized on both sides and diffed (see README.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ._cases import CASES, Case, all_cases, run_with_weft
from ._normalize import (
    canonical,
    diff,
    normalize_requests,
    normalize_run,
    render,
    run_binaries,
    run_sources,
    run_tool_inputs,
    tolerated,
)
from ._read_spy import parameter_reads, undescribed

ROOT = Path(__file__).resolve().parents[2]
CASE_LIST = all_cases()
#: The areas of the suite, by the letter a case's name starts with.
AREAS = {
    "e": "expressions",
    "n": "nodes",
    "c": "Code node",
    "f": "errors and data flow",
    "a": "AI Agent",
    "d": "declarative nodes",
    "s": "SaaS integrations",
}


@pytest.mark.parametrize("case", CASE_LIST, ids=[c.name for c in CASE_LIST])
async def test_weft_matches_n8n(case: Case) -> None:
    source, expected = case.expected_run()
    with parameter_reads() as reads:
        run, requests = await run_with_weft(case)
    differences = [d for d in diff(expected, normalize_run(run)) if not tolerated(d, case.tolerance)]
    assert not differences, f"{case.name}: Weft differs from {source}:\n{render(differences)}"
    if source != "expected_weft.json":  # each run's `source` too (not in the normalized form; no tolerance)
        recorded = json.loads(case.file(source).read_text())
        differences = diff(run_sources(recorded), run_sources(run), "source")
        assert not differences, f"{case.name}: run sources differ from {source}:\n{render(differences)}"
        # and the files: every output item's binary entries (metadata and bytes, or the mode that stores them)
        differences = [
            d for d in diff(run_binaries(recorded), run_binaries(run), "binary") if not tolerated(d, case.tolerance)
        ]
        assert not differences, f"{case.name}: binary data differs from {source}:\n{render(differences)}"
        # and what a tool's run shows as its input: the model's arguments
        differences = [
            d
            for d in diff(run_tool_inputs(recorded), run_tool_inputs(run), "toolInput")
            if not tolerated(d, case.tolerance)
        ]
        assert not differences, f"{case.name}: tool inputs differ from {source}:\n{render(differences)}"
    if case.is_ai:
        source, expected_requests = case.expected_requests()
        actual_requests = normalize_requests(requests)
        if "llm" in case.tolerance.get("llm_unordered", []):  # concurrent requests reach the model in any order
            expected_requests = sorted(expected_requests, key=canonical)
            actual_requests = sorted(actual_requests, key=canonical)
        differences = [
            d for d in diff(expected_requests, actual_requests, "llm") if not tolerated(d, case.tolerance, "llm_")
        ]
        assert not differences, f"{case.name}: Weft's model requests differ from {source}:\n{render(differences)}"
    missing = undescribed(reads)  # each parameter Weft read is in n8n's description of the type and version
    assert not missing, f"{case.name}: parameters read that n8n does not describe:\n" + "\n".join(missing)


def test_every_case_is_recorded_and_named_by_area() -> None:
    assert len(CASE_LIST) >= 250, "the suite lost cases"
    for case in CASE_LIST:
        assert case.recorded, f"{case.name} has no n8n_raw.json; record it (tests/recorded/README.md)"
        assert re.fullmatch(r"[a-z]\d{3}-[a-z0-9-]+", case.name) and case.name[0] in AREAS, case.name
        number = case.name.split("-", 1)[0]
        assert case.workflow["id"] == f"rec{number.upper()}".ljust(16, "0"), case.name
        assert case.workflow["nodes"][0]["type"] == "n8n-nodes-base.manualTrigger", case.name


def test_workflow_ids_are_unique() -> None:
    ids = [case.workflow["id"] for case in CASE_LIST]
    assert len(ids) == len(set(ids))


def test_each_deliberate_difference_is_documented() -> None:
    documented = (ROOT / "docs" / "differences.md").read_text()
    for case in CASE_LIST:
        weft_run, weft_llm = case.file("expected_weft.json"), case.file("expected_llm_weft.json")
        if not (weft_run.exists() or weft_llm.exists()):
            continue
        assert case.name in documented, f"{case.name} keeps a deliberate difference not in docs/differences.md"
        # and Weft really differs from the n8n version it would otherwise follow, or the file is not needed
        newest = next(case.file(n) for n in ("n8n_2.41_raw.json", "n8n_raw.json") if case.file(n).exists())
        if weft_run.exists():
            recorded = normalize_run(json.loads(newest.read_text()))
            assert diff(recorded, json.loads(weft_run.read_text())), f"{case.name}: expected_weft.json equals n8n's"
        if weft_llm.exists():
            newest_llm = next(
                case.file(n) for n in ("n8n_2.41_llm_requests.jsonl", "n8n_llm_requests.jsonl") if case.file(n).exists()
            )
            recorded_llm = normalize_requests(
                [json.loads(line) for line in newest_llm.read_text().splitlines() if line.strip()]
            )
            assert diff(recorded_llm, json.loads(weft_llm.read_text())), f"{case.name}: expected_llm_weft.json is n8n's"


@pytest.mark.parametrize("name", ["e001", "n001", "c001"])
def test_weft_execute_json_prints_the_same_run(name: str, tmp_path: Path) -> None:
    """The suite runs Weft in-process; ``weft execute --file … --json``, what users run, gives the same result."""
    case = next((c for c in CASE_LIST if c.name.startswith(name + "-") and not c.is_ai), None)
    if case is None:
        pytest.skip(f"no non-AI case {name}")
    env = {**os.environ, "WEFT_USER_FOLDER": str(tmp_path / "home")}
    weft = [sys.executable, "-m", "weft"]
    done = subprocess.run(
        [*weft, "execute", "--file", str(case.file("workflow.json")), "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=CASES,
    )
    assert done.returncode in (0, 1), done.stderr
    _, expected = case.expected_run()
    printed = normalize_run(json.loads(done.stdout))
    differences = [d for d in diff(expected, printed) if not tolerated(d, case.tolerance)]
    assert not differences, render(differences)
