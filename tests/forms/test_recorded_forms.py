"""Weft's forms against what a live n8n 2.41.1 answered (``n8n_2.41_answers.json``, written by ``_record_n8n.py``).

The same browser-like steps the recorder ran against n8n run against a live Weft server: open each form, submit it
as multipart, follow a multi-page form through ``/form-waiting``; every answer (status, headers that matter, the
page's facts or the JSON) and every execution (per node: status, output items with their binary entries) must be
n8n's. Only the page's Content-Security-Policy differs (Weft's is stricter: :mod:`weft.server.forms.render`), and
the host of absolute URLs.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.forms._record_n8n import CASES, _summary
from tests.server.conftest import LiveServer, wait_for

HERE = Path(__file__).parent
RECORDED = json.loads((HERE / "n8n_2.41_answers.json").read_text())
CREDENTIAL = {"id": "formBasicCred01", "name": "Form basic", "type": "httpBasicAuth"}


def _workflow(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HERE / "n8n" / f"{case}_workflow.json").read_text())
    return data


@pytest.fixture(scope="module")
def forms(live: LiveServer) -> LiveServer:
    """The live server with the recorded cases' credential and workflows, active."""
    credentials = live.instance.store.credentials
    if credentials.get(CREDENTIAL["id"]) is None:
        credentials.create(
            CREDENTIAL["name"], CREDENTIAL["type"], {"user": "alice", "password": "s3cret"}, id=CREDENTIAL["id"]
        )
    for case in CASES:
        if (
            not live.executions(_workflow(case)["id"])
            and live.client.get(f"/rest/workflows/{_workflow(case)['id']}").status_code != 200
        ):
            live.import_workflow(_workflow(case), activate=True)
    return live


def _normalize(value: Any) -> Any:
    if isinstance(value, dict):
        if isinstance(value.get("names"), list):  # (single-quoted, double-quoted) attribute matches
            value = {**value, "names": ["".join(pair) for pair in value["names"]]}
        return {k: _normalize(v) for k, v in value.items() if k != "content-security-policy"}
    if isinstance(value, list | tuple):
        return [_normalize(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"^https?://[^/]+/", "<base>/", html.unescape(value))
    return value


def _executions(live: LiveServer, workflow_id: str, count: int) -> list[dict[str, Any]]:
    def finished() -> list[dict[str, Any]] | None:
        rows = live.executions(workflow_id)
        return rows if len(rows) >= count and all(r["status"] != "running" for r in rows) else None

    rows = wait_for(finished, timeout=20)
    ordered = sorted(rows, key=lambda row: int(row["id"]))[-count:]
    found = []
    for row in ordered:
        data = live.client.get(f"/rest/executions/{row['id']}", params={"includeData": True}).json()["data"]
        found.append(_summary(data))
    return found


@pytest.mark.parametrize("case", sorted(CASES))
def test_form_answers_and_executions_are_n8ns(forms: LiveServer, case: str) -> None:
    recorded = RECORDED[case]
    run, _ = CASES[case]
    answers = run(forms.url)
    got, expected = _normalize(answers), _normalize(recorded["answers"])
    assert sorted(got) == sorted(expected)
    for step in expected:
        if isinstance(expected[step].get("body"), dict) and isinstance(got[step].get("body"), dict):
            for key in expected[step]["body"]:
                assert got[step]["body"].get(key) == expected[step]["body"][key], (step, key)
        assert got[step] == expected[step], step
    executions = _executions(forms, _workflow(case)["id"], len(recorded["executions"]))
    assert executions == recorded["executions"]
